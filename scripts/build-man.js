// Build step: renders a man page for kct and for every command from the command tree into
// dist/man/ (src/cli/packaging/man-page.ts). package.json's `man` must list exactly these pages:
// `node scripts/build-man.js --update-package-json` rewrites that list after commands change,
// and test/e2e/man-version.test.ts fails while they differ.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeStale, writeIfChanged } from './write-if-changed.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { buildProgram } = await import(join(root, 'dist', 'cli', 'core', 'program.js'));
const { commandTree } = await import(join(root, 'dist', 'cli', 'core', 'command-tree.js'));
const { renderManPages } = await import(join(root, 'dist', 'cli', 'packaging', 'man-page.js'));
const { VERSION } = await import(join(root, 'dist', 'version.js'));

const program = buildProgram(VERSION, () => {
  throw new Error('no command runs while rendering man pages');
});
const pages = renderManPages(commandTree(program), VERSION);
const folder = join(root, 'dist', 'man');
mkdirSync(folder, { recursive: true });
removeStale(folder, (name) => pages.has(name));
for (const [name, text] of pages) writeIfChanged(join(folder, name), text);

const listed = readdirSync(folder)
  .sort()
  .map((name) => `./dist/man/${name}`);
const packagePath = join(root, 'package.json');
const pkg = JSON.parse(readFileSync(packagePath, 'utf8'));
if (process.argv.includes('--update-package-json')) {
  pkg.man = listed;
  writeFileSync(packagePath, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (JSON.stringify(pkg.man) !== JSON.stringify(listed)) {
  process.stderr.write(
    'build-man: package.json "man" does not list the generated pages; run node scripts/build-man.js --update-package-json\n',
  );
}
