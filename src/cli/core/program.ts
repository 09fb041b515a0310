// The command tree: registers each command's declaration (src/commands/<name>/command.ts) and
// loads its run.ts only when it runs, so `kct --help` and `kct --version` import no command's code.
import { Command, Option } from 'commander';
import { UsageError } from '../../api/errors.js';
import { command as api } from '../../commands/api/command.js';
import { command as assign } from '../../commands/assign/command.js';
import { command as auth } from '../../commands/auth/command.js';
import { command as batch } from '../../commands/batch/command.js';
import { command as callbacks } from '../../commands/callbacks/command.js';
import { command as cancel } from '../../commands/cancel/command.js';
import { command as completeValues } from '../../commands/complete-values/command.js';
import { command as completion } from '../../commands/completion/command.js';
import { command as config } from '../../commands/config/command.js';
import { command as credits } from '../../commands/credits/command.js';
import { command as doctor } from '../../commands/doctor/command.js';
import { command as evaluate } from '../../commands/evaluate/command.js';
import { command as grades } from '../../commands/grades/command.js';
import { command as ingest } from '../../commands/ingest/command.js';
import { command as keys } from '../../commands/keys/command.js';
import { command as models } from '../../commands/models/command.js';
import { command as onePass } from '../../commands/one-pass/command.js';
import { command as report } from '../../commands/report/command.js';
import { command as result } from '../../commands/result/command.js';
import { command as rewrite } from '../../commands/rewrite/command.js';
import { command as sandbox } from '../../commands/sandbox/command.js';
import { command as status } from '../../commands/status/command.js';
import { command as upload } from '../../commands/upload/command.js';
import { command as version } from '../../commands/version/command.js';
import { OUTPUT_FORMATS } from '../render/format.js';
import { setExamples } from './command-tree.js';
import type { Context, GlobalOptions } from './context.js';
import { attributeName, type CommandDeclaration, optionEntries, parseOptions } from './define-command.js';
import { GLOBAL_OPTIONS } from './options.js';
import { PAGED_COMMANDS, startPager } from './pager.js';

// In the order of `kct --help`: the API's commands, then the tools around it (exported for tests).
export const COMMANDS: CommandDeclaration[] = [
  credits,
  models,
  ingest,
  onePass,
  status,
  result,
  cancel,
  assign,
  evaluate,
  batch,
  upload,
  rewrite,
  report,
  grades,
  callbacks,
  auth,
  keys,
  config,
  sandbox,
  doctor,
  api,
  completion,
  completeValues,
  version,
];

const TOP_EXAMPLES = [
  'kct sandbox                               # a local API to try things on',
  'kct auth login --base-url https://api.example/v1',
  'kct models',
  'kct one-pass essay.pdf --model 12',
  'kct status <task_id> --watch',
];

export function buildProgram(version: string, onContext: (globals: GlobalOptions) => Context): Command {
  const program = new Command('kct')
    .description('Mark student writing with the Public Evaluation API v1.')
    .version(version, '-V, --version', 'print the version');
  for (const [flags, description] of Object.entries(GLOBAL_OPTIONS)) program.option(flags, description);
  program.addHelpText(
    'after',
    `
Examples:
${TOP_EXAMPLES.map((line) => `  $ ${line}`).join('\n')}

Exit codes: run \`kct help exit-codes\`.`,
  );

  setExamples(program, TOP_EXAMPLES);
  for (const spec of COMMANDS) program.addCommand(toCommand(spec, onContext), { hidden: spec.hidden });
  program
    .command('help-exit-codes', { hidden: true })
    .addOption(new Option('-o, --output <format>', 'output format').choices(OUTPUT_FORMATS))
    .action(async (options: { output?: string }) => {
      const { printExitCodes } = await import('./help-topics.js');
      await printExitCodes(onContext(program.opts<GlobalOptions>()), options.output);
    });
  return program;
}

function toCommand(spec: CommandDeclaration, onContext: (globals: GlobalOptions) => Context, parents: string[] = []): Command {
  const path = [...parents, spec.name].join(' ');
  const command = new Command(spec.name).description(spec.summary);
  // commander keeps each flag's values apart: their order across flags (kct api's -f and -F) is kept here
  const inOrder: [string, string][] = [];
  for (const alias of spec.aliases ?? []) command.alias(alias);
  for (const [syntax, description] of Object.entries(spec.args ?? {})) command.argument(syntax, description);
  for (const [flags, option] of optionEntries(spec.options)) {
    // commander marks no option as required in the help: said in its line
    const built = new Option(flags, option.required ? `${option.description} (required)` : option.description);
    if (option.choices) built.choices(option.choices);
    if (option.defaultValue !== undefined) built.default(option.defaultValue);
    if (option.hidden) built.hideHelp();
    if (option.required) built.makeOptionMandatory();
    if (option.repeatable)
      built.argParser((value: string, previous: unknown) => {
        inOrder.push([attributeName(flags), value]);
        return [...(Array.isArray(previous) ? previous : []), value];
      });
    command.addOption(built);
  }
  command.addHelpText('after', `\nExamples:\n${spec.examples.map((line) => `  $ ${line}`).join('\n')}\n`);
  setExamples(command, spec.examples);
  if (spec.subcommands) {
    for (const sub of spec.subcommands) command.addCommand(toCommand(sub, onContext, [...parents, spec.name]), { hidden: sub.hidden });
    // A group with its own module also runs on its own (`kct models` lists, `kct models show` shows).
    if (!spec.load) return command;
  }
  const load = spec.load;
  if (!load) throw new Error(`command ${spec.name} has neither a module nor subcommands`);
  const argNames = Object.keys(spec.args ?? {}).map(attributeName);
  // a group that also runs on its own takes a word that is none of its commands to be its argument
  // ("too many arguments for 'models'"): it is let through, and said to be an unknown command below
  const subcommands = spec.subcommands?.filter((sub) => !sub.hidden).map((sub) => sub.name) ?? [];
  if (subcommands.length > 0) command.allowExcessArguments(true);
  command.action(async function action(this: Command, ...values: unknown[]) {
    const extra = this.args[argNames.length];
    if (subcommands.length > 0 && extra !== undefined)
      throw new UsageError(`unknown command '${extra}' for 'kct ${path}'`, {
        suggestion: `Its commands: ${subcommands.join(', ')}. On its own, \`kct ${path}\`: ${spec.summary.split(';')[0]}.`,
      });
    const all = this.optsWithGlobals<Record<string, unknown> & GlobalOptions>();
    const positional: Record<string, unknown> = {};
    argNames.forEach((name, index) => {
      positional[name] = values[index];
    });
    const context = onContext(all);
    const [z, module] = await Promise.all([import('../../api/zod.js'), load()]);
    const options = parseOptions(spec, { ...all, ...positional, repeatedInOrder: inOrder }, z);
    const stopPager = PAGED_COMMANDS.has(path) ? await startPager(context) : undefined;
    try {
      await (module.run as (options: unknown, context: Context) => Promise<void>)(options, context);
    } finally {
      await stopPager?.();
    }
  });
  return command;
}
