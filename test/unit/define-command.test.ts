// Command declarations (src/commands/<name>/command.ts): every flag and argument commander hands
// over is in the command's options schema, the defaults commander fills in pass it, and a bad
// value is a usage error naming the flag.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UsageError } from '../../src/api/errors.js';
import { attributeName, defineCommand, parseOptions, type CommandDeclaration } from '../../src/cli/define-command.js';
import { globalOptions, positiveNumber } from '../../src/cli/options.js';
import { COMMANDS } from '../../src/cli/program.js';

function flatten(declarations: CommandDeclaration[], parents: string[] = []): [string, CommandDeclaration][] {
  return declarations.flatMap((declaration) => {
    const path = [...parents, declaration.name];
    return [[path.join(' '), declaration] as [string, CommandDeclaration], ...flatten(declaration.subcommands ?? [], path)];
  });
}

const runnable = flatten(COMMANDS).filter(([, declaration]) => declaration.load);

describe('command declarations', () => {
  it('declare every command of the tree, each runnable one with a schema and a loader', () => {
    expect(runnable.map(([path]) => path)).toEqual(expect.arrayContaining(['credits', 'models', 'models show', 'ingest questions', 'keys revoke', 'config path', 'sandbox', 'one-pass', 'batch']));
    for (const [, declaration] of runnable) expect(declaration.schema?.(z)).toBeInstanceOf(z.ZodObject);
  });

  it.each(runnable)('%s: its schema names every flag and argument (nothing commander sends is dropped)', (_, declaration) => {
    const shape = (declaration.schema!(z) as z.ZodObject).shape;
    const names = [...(declaration.options ?? []).map((option) => attributeName(option.flags)), ...(declaration.args ?? []).map((arg) => attributeName(arg.syntax))];
    for (const name of names) expect(shape, name).toHaveProperty(name);
    for (const global of Object.keys(globalOptions(z).shape)) expect(shape).toHaveProperty(global);
  });

  it.each(runnable)('%s: accepts what commander sends for a valid command line', (_, declaration) => {
    const sample: Record<string, unknown> = {};
    for (const option of declaration.options ?? []) {
      const name = attributeName(option.flags);
      const value = option.choices?.[0] ?? '1';
      if (option.defaultValue !== undefined) sample[name] = option.defaultValue;
      else if (/--no-/.test(option.flags)) sample[name] = true;
      else if (option.required) sample[name] = /\.\.\.[>\]]/.test(option.flags) || option.repeatable ? [value] : value;
    }
    for (const arg of declaration.args ?? []) if (arg.syntax.startsWith('<')) sample[attributeName(arg.syntax)] = arg.syntax.includes('...') ? ['a'] : 'a';
    expect(() => parseOptions(declaration, { ...sample, json: true, color: true, pager: true }, z)).not.toThrow();
  });
});

describe('parseOptions', () => {
  const declaration = defineCommand({
    name: 'try',
    summary: 'a command for this test',
    args: [{ syntax: '<task-id>', description: 'task' }],
    options: [
      { flags: '-j, --jobs <n>', description: 'jobs', defaultValue: '4' },
      { flags: '--total-score <n>', description: 'total' },
      { flags: '--no-wait', description: 'do not wait' },
    ],
    examples: ['kct try t1'],
    schema: (zod) => globalOptions(zod).extend({
      taskId: zod.string().startsWith('tsk_'),
      jobs: zod.string().regex(/^\d+$/),
      totalScore: positiveNumber(zod, '--total-score').optional(),
      wait: zod.boolean(),
    }),
    load: async () => ({ run: async () => {} }),
  });

  it('returns the options typed as the schema says (numbers parsed, unknown keys dropped)', () => {
    expect(parseOptions(declaration, { taskId: 'tsk_1', jobs: '8', totalScore: '30', wait: false, stray: 1 }, z)).toEqual({ taskId: 'tsk_1', jobs: '8', totalScore: 30, wait: false });
  });

  it('names the flag of a bad value, as a usage error (exit 2)', () => {
    expect(() => parseOptions(declaration, { taskId: 'tsk_1', jobs: 'many', wait: true }, z)).toThrow(UsageError);
    expect(() => parseOptions(declaration, { taskId: 'tsk_1', jobs: 'many', wait: true }, z)).toThrow(/^invalid value for --jobs: /);
    expect(() => parseOptions(declaration, { taskId: 'x', jobs: '1', wait: true }, z)).toThrow(/^invalid value for <task-id>: /);
  });

  it('keeps the message of a check that names its flag itself', () => {
    expect(() => parseOptions(declaration, { taskId: 'tsk_1', jobs: '1', totalScore: 'abc', wait: true }, z)).toThrow('--total-score must be a positive number, not "abc"');
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
