// Command declarations (src/commands/<name>/command.ts): the options schema derived from the flags
// names every flag and argument commander hands over, the defaults commander fills in pass it, and a
// bad value is a usage error naming the flag.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { UsageError } from '../../src/api/errors.js';
import {
  attributeName,
  type CommandDeclaration,
  defineCommand,
  type OptionsOf,
  optionEntries,
  optionsSchema,
  parseOptions,
  type Zod,
} from '../../src/cli/core/define-command.js';
import { GLOBAL_OPTIONS } from '../../src/cli/core/options.js';
import { checked, parsePositiveNumber } from '../../src/cli/core/parse.js';
import { COMMANDS } from '../../src/cli/core/program.js';

function flatten(declarations: CommandDeclaration[], parents: string[] = []): [string, CommandDeclaration][] {
  return declarations.flatMap((declaration) => {
    const path = [...parents, declaration.name];
    return [[path.join(' '), declaration] as [string, CommandDeclaration], ...flatten(declaration.subcommands ?? [], path)];
  });
}

const runnable = flatten(COMMANDS).filter(([, declaration]) => declaration.load);

describe('command declarations', () => {
  it('declare every command of the tree, each runnable one with a loader', () => {
    expect(runnable.map(([path]) => path)).toEqual(
      expect.arrayContaining([
        'credits',
        'models',
        'models show',
        'ingest questions',
        'keys revoke',
        'config path',
        'sandbox',
        'one-pass',
        'batch',
      ]),
    );
    for (const [, declaration] of runnable) expect(declaration.load).toBeTypeOf('function');
  });

  it.each(runnable)(
    '%s: its derived schema names every flag and argument, and the global flags (nothing commander sends is dropped)',
    (_, declaration) => {
      const shape = optionsSchema(declaration, z).shape;
      const syntaxes = [...Object.keys(GLOBAL_OPTIONS), ...Object.keys(declaration.options ?? {}), ...Object.keys(declaration.args ?? {})];
      for (const name of syntaxes.map(attributeName)) expect(shape, name).toHaveProperty(name);
      expect(Object.keys(shape)).toHaveLength(new Set(Object.keys(shape)).size);
    },
  );

  it.each(runnable)('%s: accepts what commander sends for a valid command line', (_, declaration) => {
    expect(() => parseOptions(declaration, validSample(declaration), z)).not.toThrow();
  });

  it.each(runnable)('%s: refuses an empty value for every flag that takes one, naming the flag (an unset $VARIABLE)', (_, declaration) => {
    for (const [flags, option] of [...optionEntries(GLOBAL_OPTIONS), ...optionEntries(declaration.options)]) {
      const long = /--[\w-]+/.exec(flags)![0];
      if (!/<[^>]+>/.test(flags) || EMPTY_IS_NONE.has(long)) continue;
      const empty = option.repeatable || flags.includes('...') ? [''] : '';
      let thrown: unknown;
      try {
        parseOptions(declaration, { ...validSample(declaration), [attributeName(flags)]: empty }, z);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, `${long} ""`).toBeInstanceOf(UsageError);
      expect((thrown as Error).message, `${long} ""`).toContain(long);
    }
  });
});

describe('an empty value', () => {
  it("gets the flag's own hint when it has one (whenEmpty), else the help", () => {
    const onePass = runnable.find(([path]) => path === 'one-pass')![1];
    const hintOf = (raw: Record<string, unknown>) => {
      try {
        parseOptions(onePass, { ...validSample(onePass), ...raw }, z);
      } catch (error) {
        return (error as UsageError).suggestion;
      }
      return undefined;
    };
    expect(hintOf({ exclude: [''] })).toBe('Give a pattern, e.g. --exclude "drafts/**" or --exclude "*.docx".');
    expect(hintOf({ report: ' ' })).toContain('--report class.html');
    expect(hintOf({ model: '' })).toBe('Run with --help for usage.');
  });
});

/** Flags whose empty value is documented as none (options.ts). */
const EMPTY_IS_NONE = new Set(['--poll-interval']);

/** What commander sends for a valid command line of the declaration: its required flags and arguments, and its defaults. */
function validSample(declaration: CommandDeclaration): Record<string, unknown> {
  const sample: Record<string, unknown> = { json: true, color: true, pager: true };
  for (const [flags, option] of optionEntries(declaration.options)) {
    const name = attributeName(flags);
    const value = option.choices?.[0] ?? (/<date>/.test(flags) ? '2026-12-01' : '1');
    if (option.defaultValue !== undefined) sample[name] = option.defaultValue;
    else if (/--no-/.test(flags)) sample[name] = true;
    else if (option.required) sample[name] = /\.\.\.[>\]]/.test(flags) || option.repeatable ? [value] : value;
  }
  for (const syntax of Object.keys(declaration.args ?? {}))
    if (syntax.startsWith('<')) sample[attributeName(syntax)] = syntax.includes('...') ? ['a'] : 'a';
  return sample;
}

describe('parseOptions', () => {
  const declaration = defineCommand({
    name: 'try',
    summary: 'a command for this test',
    args: { '<task-id>': 'task', '[files...]': 'files' },
    options: {
      '-j, --jobs <n>': { description: 'jobs', defaultValue: '4', check: (zod: Zod) => zod.string().regex(/^\d+$/) },
      '--total-score <n>': { description: 'total', check: checked(parsePositiveNumber, '--total-score') },
      '--style <style>': { description: 'style', choices: ['Bullet', 'Short'] },
      '--asset <url>': { description: 'asset', repeatable: true },
      '--no-wait': 'do not wait',
      '--ready': 'ready',
    },
    examples: ['kct try t1'],
    load: async () => ({ run: async () => {} }),
  });

  it('returns the options typed as the flags say (numbers parsed, unknown keys dropped, absent optional ones left out)', () => {
    expect(
      parseOptions(declaration, { taskId: 't1', jobs: '8', totalScore: '30', wait: false, color: true, pager: true, stray: 1 }, z),
    ).toEqual({ taskId: 't1', jobs: '8', totalScore: 30, wait: false, color: true, pager: true });
    expect(
      parseOptions(
        declaration,
        {
          taskId: 't1',
          files: ['a', 'b'],
          jobs: '1',
          style: 'Short',
          asset: ['u1', 'u2'],
          ready: true,
          wait: true,
          color: true,
          pager: true,
        },
        z,
      ),
    ).toMatchObject({ files: ['a', 'b'], style: 'Short', asset: ['u1', 'u2'], ready: true });
  });

  it('derives each kind: a choice, a list, a boolean, a required argument, and a flag commander always sends', () => {
    const valid = { taskId: 't1', jobs: '1', wait: true, color: true, pager: true };
    expect(() => parseOptions(declaration, { ...valid, style: 'Long' }, z)).toThrow(/^invalid value for --style: /);
    expect(() => parseOptions(declaration, { ...valid, asset: 'u1' }, z)).toThrow(/^invalid value for --asset: /);
    expect(() => parseOptions(declaration, { ...valid, ready: 'yes' }, z)).toThrow(/^invalid value for --ready: /);
    expect(() => parseOptions(declaration, { ...valid, taskId: undefined }, z)).toThrow(/^invalid value for <task-id>: /);
    expect(() => parseOptions(declaration, { ...valid, wait: undefined }, z)).toThrow(/^invalid value for --no-wait: /);
  });

  it('names the flag of a bad value, as a usage error (exit 2)', () => {
    expect(() => parseOptions(declaration, { taskId: 't1', jobs: 'many', wait: true, color: true, pager: true }, z)).toThrow(UsageError);
    expect(() => parseOptions(declaration, { taskId: 't1', jobs: 'many', wait: true, color: true, pager: true }, z)).toThrow(
      /^invalid value for --jobs: /,
    );
  });

  it("types run's options from the flags as declared (checked by npm run typecheck)", () => {
    expectTypeOf<OptionsOf<typeof declaration>>().toEqualTypeOf<{
      profile?: string;
      baseUrl?: string;
      json?: boolean;
      debug?: boolean;
      color: boolean;
      pager: boolean;
      jobs: string;
      totalScore?: number;
      style?: 'Bullet' | 'Short';
      asset?: string[];
      wait: boolean;
      ready?: boolean;
      taskId: string;
      files?: string[];
      repeatedInOrder?: [string, string][];
    }>();
    const typed = {} as OptionsOf<typeof declaration>;
    // @ts-expect-error -- a flag the declaration does not have is a compile error in run
    expect(typed.jbos).toBeUndefined();
  });

  it('keeps the message of a check that names its flag itself', () => {
    expect(() =>
      parseOptions(declaration, { taskId: 't1', jobs: '1', totalScore: 'abc', wait: true, color: true, pager: true }, z),
    ).toThrow('--total-score must be a positive number, not "abc"');
  });
});

describe('attributeName', () => {
  it.each([
    ['-m, --model <id>', 'model'],
    ['--poll-interval <duration>', 'pollInterval'],
    ['--no-wait', 'wait'],
    ['--rubric-file <path...>', 'rubricFile'],
    ['<taskId>', 'taskId'],
    ['[files...]', 'files'],
    ['<question-files...>', 'questionFiles'],
  ])('%s arrives as %s', (flags, name) => {
    expect(attributeName(flags)).toBe(name);
  });
});
