// Build step: renders the --help text of every command once, at 80 columns, into
// dist/help-cache.json. bin/kct.js prints it for `kct [command...] --help` without loading
// commander or building the command tree (the slowest part of start-up).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeIfChanged } from './write-if-changed.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { buildProgram } = await import(join(root, 'dist', 'cli', 'core', 'program.js'));
const { VERSION } = await import(join(root, 'dist', 'version.js'));

export const HELP_WIDTH = 80;
const program = buildProgram(VERSION, () => {
  throw new Error('no command runs while rendering help');
});
const cache = {};
const visit = (command, path) => {
  let text = '';
  command.configureOutput({
    writeOut: (s) => (text += s),
    writeErr: (s) => (text += s),
    getOutHelpWidth: () => HELP_WIDTH,
    getErrHelpWidth: () => HELP_WIDTH,
  });
  command.outputHelp();
  cache[path.join(' ')] = text;
  for (const sub of command.commands) if (!sub._hidden) visit(sub, [...path, sub.name()]);
};
visit(program, []);
writeIfChanged(join(root, 'dist', 'help-cache.json'), JSON.stringify({ width: HELP_WIDTH, version: VERSION, help: cache }));
