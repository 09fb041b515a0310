// Messages that lead somewhere (issue 36), in-process with runKct: an unknown command answered by
// meaning as well as spelling, and a connection refused on this machine naming `kct sandbox`.
import fc from 'fast-check';
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import type { CommandDeclaration } from '../../../src/cli/core/define-command.js';
import { MEANINGS } from '../../../src/cli/core/meaning.js';
import { COMMANDS } from '../../../src/cli/core/program.js';
import { closedPort } from '../closed-port.js';
import { propertyRuns, propertySeed } from '../property-runs.js';
import { ORIGIN, runKct } from './run-kct.js';

const topNames = new Set(COMMANDS.flatMap((spec) => [spec.name, ...(spec.aliases ?? [])]));

/** Every command path (`one-pass`, `models new`) with its own flags, as declared. */
const paths = (specs: CommandDeclaration[], parents: string[] = []): { path: string[]; flags: string[] }[] =>
  specs.flatMap((spec) => [
    { path: [...parents, spec.name], flags: Object.keys(spec.options ?? {}) },
    ...paths((spec as { subcommands?: CommandDeclaration[] }).subcommands ?? [], [...parents, spec.name]),
  ]);
const FLAGGED = paths(COMMANDS).filter(({ flags }) => flags.length > 0);

describe("a command's flag typed before the command", () => {
  it(`is said to go after the command's name, with the line as it would work (exit 2; seed ${propertySeed(5192)})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FLAGGED).chain(({ path, flags }) => fc.record({ path: fc.constant(path), flags: fc.constantFrom(...flags) })),
        async ({ path, flags }) => {
          // "-m, --model <id>": the long name, with a value when it takes one
          const long = /--[\w-]+/.exec(flags)![0];
          const typed = /[<[]/.test(flags) ? [long, 'x1'] : [long];
          const run = await runKct([...typed, ...path, 'more']);
          expect(run.code, run.stderr).toBe(2);
          const line = ['kct', ...path, ...typed, 'more'].join(' ');
          expect(run.stderr, run.stderr).toContain(`(Did you mean \`${line}\`? ${long} is an option of kct ${path.join(' ')}`);
        },
      ),
      { numRuns: propertyRuns(40), seed: propertySeed(5192) },
    );
  });

  it('says so in --json too, and leaves a flag of no command, or one typed after its command, to commander', async () => {
    const json = await runKct(['--json', '--model=12', 'one-pass', 'essay.txt']);
    expect(JSON.parse(json.stderr.trim()).error.suggestion).toContain('Did you mean `kct --json one-pass --model=12 essay.txt`?');
    const typo = await runKct(['--modle', '12', 'one-pass', 'essay.txt']);
    expect(typo.stderr).not.toContain('Did you mean `kct');
    const after = await runKct(['models', '--model', '12']);
    expect(after.stderr).not.toContain('it goes after');
  });
});

describe('a flag named by its first word (--data-dir for --data)', () => {
  const firstWord = (long: string) => long.replace(/^--(no-)?/, '').split('-')[0];
  it(`gets the one flag of its command with that first word, where commander's spelling finds none (exit 2; seed ${propertySeed(5193)})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FLAGGED).chain(({ path, flags }) => fc.record({ path: fc.constant(path), flags: fc.constantFrom(...flags) })),
        fc.constantFrom('-dir', '-path', '-number', '-value'),
        async ({ path, flags }, suffix) => {
          const long = /--[\w-]+/.exec(flags)![0];
          const longs = FLAGGED.find((entry) => entry.path === path)!.flags.map((f) => /--[\w-]+/.exec(f)![0]);
          const run = await runKct([...path, `${long}${suffix}`, 'x1']);
          expect(run.code, run.stderr).toBe(2);
          // a command with a required option says that first (commander's order): nothing to suggest then
          if (run.stderr.startsWith('error: required option')) return;
          expect(run.stderr).toContain(`error: unknown option '${long}${suffix}'`);
          const suggested = /\(Did you mean (--[\w-]+)\?\)/.exec(run.stderr)?.[1];
          // a suggestion, when there is one, is a flag of this command
          if (suggested !== undefined) expect(longs).toContain(suggested);
          const alike = longs.filter((other) => firstWord(other) === firstWord(long));
          if (alike.length === 1) expect(suggested, run.stderr).toBe(long);
        },
      ),
      { numRuns: propertyRuns(40), seed: propertySeed(5193) },
    );
  });

  it('never suggests the opposite flag: --wait-for is not --no-wait', async () => {
    for (const args of [
      ['batch', 'm.jsonl', '--wait-for', '5m'],
      ['one-pass', 'class', '--wait-timeout', '5m'],
    ]) {
      const run = await runKct(args);
      expect(run.code).toBe(2);
      expect(run.stderr).not.toContain('--no-wait');
    }
  });

  it('kct sandbox --data-dir leads to --data, in --json too', async () => {
    const run = await runKct(['sandbox', '--data-dir', '/tmp/class']);
    expect(run.stderr).toContain("error: unknown option '--data-dir'\n(Did you mean --data?)");
    const json = await runKct(['--json', 'sandbox', '--data-dir', '/tmp/class']);
    expect(JSON.parse(json.stderr).error.suggestion).toContain('Did you mean --data?');
  });
});

describe('an unknown command is answered by meaning as well as spelling', () => {
  it('kct watch leads to kct status --watch, not to batch', async () => {
    const run = await runKct(['watch']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      "error: unknown command 'watch'\n(Did you mean `kct status <task_id> --watch`? It follows a task until it ends.)\nhint: `kct --help` lists its commands, with examples\n",
    );
  });

  it('--json carries the same suggestion, and `kct help watch` answers as `kct watch` does', async () => {
    const json = await runKct(['--json', 'watch']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr).error).toEqual({
      code: 'usage',
      message: "unknown command 'watch'",
      exit_code: 2,
      suggestion: 'Did you mean `kct status <task_id> --watch`? It follows a task until it ends. Run with --help for usage.',
    });
    const help = await runKct(['help', 'balance']);
    expect(help.code).toBe(2);
    expect(help.stderr).toContain('(Did you mean `kct credits`? It prints the credits left.)');
  });

  it('a long option written with one dash (-output csv) is said to be one, not read as -o utput', async () => {
    const run = await runKct(['one-pass', 'essay.txt', '-output', 'csv']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error: -output is not an option: a long option takes two dashes (--output)');
    const json = await runKct(['--json', 'models', '-output=csv']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'usage', exit_code: 2, message: expect.stringContaining('(--output)') });
    // a value after -- is not looked at, nor a word that is no option
    expect((await runKct(['one-pass', '-pwork', '--help'])).stderr).not.toContain('two dashes');
  });

  it('a command of commands named alone (kct grades, kct auth, kct keys): its usage, then exit 2 naming its commands; --json one error object', async () => {
    for (const [group, names] of [
      ['grades', 'moodle, canvas'],
      ['auth', 'login'],
      ['keys', 'list'],
      ['config', 'set'],
    ] as const) {
      const run = await runKct([group]);
      expect(run.code, group).toBe(2);
      expect(run.stderr).toContain(`Usage: kct ${group}`);
      expect(run.stderr).toMatch(new RegExp(`error: kct ${group} needs a command: .*${names}`));
    }
    // a bare kct is its help, exit 0, with --json too
    for (const bare of [[], ['--json']]) {
      const run = await runKct(bare);
      expect(run.code, bare.join(' ')).toBe(0);
      expect(run.stderr).toContain('Usage: kct [options] [command]');
    }
    const json = await runKct(['grades', '--json']);
    expect(json.code).toBe(2);
    expect(json.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.stderr).error).toMatchObject({
      code: 'usage',
      exit_code: 2,
      message: 'kct grades needs a command: moodle, canvas',
    });
  });

  it("kct help of a subcommand path is that subcommand's help, as --help gives it", async () => {
    const help = await runKct(['help', 'grades', 'moodle']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe((await runKct(['grades', 'moodle', '--help'])).stdout);
    expect(help.stdout).toContain('--feedback <form>');
    expect((await runKct(['help', 'grades'])).stdout).toBe((await runKct(['grades', '--help'])).stdout);
    // a word that is no subcommand: refused as `kct grades nope` is, not the help of grades
    const nope = await runKct(['help', 'grades', 'nope']);
    expect(nope.code).toBe(2);
    expect(nope.stderr).toContain("unknown command 'nope'");
  });

  // a group that also runs on its own (`kct models` lists) read such a word as its argument: "too many arguments for 'models'"
  it(`property: a word after a group that runs on its own, none of its commands, is an unknown command of that group, exit 2, nothing sent (seed ${propertySeed(5191)})`, async () => {
    const groups = COMMANDS.filter((spec) => spec.subcommands !== undefined && spec.load !== undefined);
    expect(groups.map((spec) => spec.name)).toContain('models');
    const word = fc.stringMatching(/^[a-z][a-z-]{0,11}$/);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...groups), word, fc.boolean(), async (group, typed, json) => {
        const names = group.subcommands!.flatMap((sub) => [sub.name, ...(sub.aliases ?? [])]);
        fc.pre(!names.includes(typed) && typed !== 'help');
        const run = await runKct([...(json ? ['--json'] : []), group.name, typed, '12']);
        expect(run.code, run.stderr).toBe(2);
        expect(run.stdout).toBe('');
        const visible = group.subcommands!.filter((sub) => !sub.hidden).map((sub) => sub.name);
        if (json)
          expect(JSON.parse(run.stderr).error).toMatchObject({
            message: `unknown command '${typed}' for 'kct ${group.name}'`,
            suggestion: expect.stringContaining(`Its commands: ${visible.join(', ')}.`),
          });
        else
          expect(run.stderr).toContain(
            `error: unknown command '${typed}' for 'kct ${group.name}'\nhint: Its commands: ${visible.join(', ')}.`,
          );
      }),
      { numRuns: propertyRuns(30), seed: propertySeed(5191) },
    );
    expect((await runKct(['models', 'list'])).stderr).toContain('On its own, `kct models`: list the marking models this key can use.');
  });

  it('any word followed by moodle or canvas means the grade file: kct grade moodle leads to kct grades moodle', async () => {
    const moodle = await runKct(['grade', 'moodle', 'marks.ndjson', 'Grades.csv']);
    expect(moodle.code).toBe(2);
    expect(moodle.stderr).toContain("(Did you mean `kct grades moodle <saved-run> <worksheet.csv>`? It fills Moodle's grading worksheet");
    expect((await runKct(['fill', 'Canvas', 'marks.ndjson'])).stderr).toContain(
      '`kct grades canvas <saved-run> <gradebook.csv> --assignment <name>`',
    );
    // without a platform after it, grade still means marking
    expect((await runKct(['grade', 'essay.txt'])).stderr).toContain('`kct one-pass <file> --model <id>`');
  });

  it("a word the table does not hold keeps commander's spelling suggestion; a subcommand's is left to commander", async () => {
    const typo = await runKct(['modles']);
    expect(typo.stderr).toBe(
      "error: unknown command 'modles'\n(Did you mean models?)\nhint: `kct --help` lists its commands, with examples\n",
    );
    const sub = await runKct(['keys', 'new']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).not.toContain('kct models new');
  });

  it('every word of the table: exit 2, the command it means, which exists; no word is a command of its own', async () => {
    const words = Object.keys(MEANINGS);
    expect(words).toEqual(expect.arrayContaining(['watch', 'follow', 'poll', 'mark', 'grade', 'submit', 'login', 'key', 'balance']));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...words), fc.boolean(), async (word, upper) => {
        expect(topNames.has(word)).toBe(false);
        const typed = upper ? word.toUpperCase() : word;
        const run = await runKct([typed]);
        expect(run.code).toBe(2);
        const { command } = MEANINGS[word];
        expect(run.stderr).toContain(`(Did you mean \`${command}\`?`);
        // the command it names is kct's: its words up to the first placeholder or flag are a command path
        const path = command
          .split(' ')
          .slice(1)
          .filter((part, index, all) => !/^[<-]/.test(part) && all.slice(0, index).every((before) => !/^[<-]/.test(before)));
        const help = await runKct([...path, '--help']);
        expect(help.code, `${command}: kct ${path.join(' ')} --help`).toBe(0);
      }),
      { numRuns: propertyRuns(words.length * 2), seed: propertySeed(36) },
    );
  });

  it('any other unknown word gets no suggestion by meaning', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[a-z]{3,10}$/).filter((word) => !topNames.has(word) && !Object.hasOwn(MEANINGS, word) && word !== 'help'),
        async (word) => {
          const run = await runKct([word]);
          expect(run.code).toBe(2);
          expect(run.stderr).toMatch(new RegExp(`^error: unknown command '${word}'\\n`));
          expect(run.stderr).not.toMatch(/Did you mean `kct /);
        },
      ),
      { numRuns: propertyRuns(40), seed: propertySeed(3636) },
    );
  });
});

describe('every usage error says what to do', () => {
  // each of these printed its error alone (a CI engineer's list): exit 2, and a hint line, or a suggestion under --json
  const cases: { args: string[]; input?: string; env?: Record<string, string> }[] = [
    { args: ['one-pass', '-', '--model', '12'], input: '' },
    { args: ['one-pass', '--text', '', '--model', '12'] },
    { args: ['one-pass', '--text', 'An answer.', '--model', '12', '--jobs', '0'] },
    { args: ['one-pass', '--text', 'An answer.', '--model', '12', '--timeout', '0'] },
    { args: ['help', 'exit-codes'], env: { KCT_OUTPUT: 'bogus' } },
    { args: ['config', 'set', 'model', 'abc'] },
    { args: ['credits', '--bogus'] },
    { args: ['one-pass', '--files-from', '/nonexistent/kct-list.txt', '--model', '12'] },
    { args: ['one-pass', '--files-from', '/tmp', '--model', '12'] },
    { args: ['one-pass', 'essay.txt', '--model', '12', '--exclude', ''] },
    { args: ['one-pass', 'essay.txt', '--model', ''] },
  ];
  it.each(cases)('kct $args.0 …: exit 2 with a hint', async ({ args, input, env }) => {
    const text = await runKct(args, { stdin: input, env });
    expect(text.code, text.stderr).toBe(2);
    expect(text.stderr, text.stderr).toMatch(/\nhint: \S/);
    // commander's own error has its --json form elsewhere; --json itself sets the format KCT_OUTPUT got wrong
    if (args.includes('--bogus') || env?.KCT_OUTPUT) return;
    const json = await runKct([...args, '--json'], { stdin: input, env });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr.trim().split('\n').pop()!).error.suggestion, json.stderr).toEqual(expect.any(String));
  });
});

describe('a connection refused on this machine names kct sandbox', () => {
  it('127.0.0.1 on another port: start a sandbox there, or check the base URL (exit 9)', async () => {
    const port = await closedPort('127.0.0.1');
    const run = await runKct(['credits'], { env: { KCT_BASE_URL: `http://127.0.0.1:${port}/v1` } });
    expect(run.code).toBe(9);
    expect(run.stderr).toContain(`error: cannot reach http://127.0.0.1:${port}/v1 (connection refused)`);
    expect(run.stderr).toContain(
      `hint: Is the sandbox running? Start it with \`kct sandbox --port ${port}\` in another terminal, or check the base URL it names (given with --base-url, KCT_BASE_URL, or \`kct config set base_url\`).`,
    );
    expect(run.stderr).not.toContain('proxy');
  });

  it('localhost and [::1] too (the sandbox on ::1 needs --host), and in --json', async () => {
    const port = await closedPort('127.0.0.1');
    const local = await runKct(['credits', '--json'], { env: { KCT_BASE_URL: `http://localhost:${port}/v1` } });
    expect(local.code).toBe(9);
    const error = JSON.parse(local.stderr.trim().split('\n').at(-1)!).error as { suggestion: string };
    expect(error.suggestion).toContain(`\`kct sandbox --port ${port}\``);
    const six = await closedPort('::1').catch(() => undefined);
    if (six === undefined) return; // no IPv6 loopback on this machine
    const v6 = await runKct(['credits'], { env: { KCT_BASE_URL: `http://[::1]:${six}/v1` } });
    expect(v6.stderr).toContain(`\`kct sandbox --host ::1 --port ${six}\``);
  });

  it('a refused connection elsewhere keeps the network advice', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get(ORIGIN)
      .intercept({ method: 'GET', path: '/v1/credits' })
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
      .persist();
    const run = await runKct(['credits'], { api: { agent, reply() {}, assertAllCalled() {} } });
    expect(run.code).toBe(9);
    expect(run.stderr).toContain(
      'hint: Check the base URL it names (given with --base-url, KCT_BASE_URL, or `kct config set base_url`) and your network or proxy settings',
    );
    expect(run.stderr).not.toContain('kct sandbox');
  });
});

describe('required options', () => {
  /** Every command path with the options it requires, as declared. */
  const requiring = (specs: CommandDeclaration[], parents: string[] = []): { path: string[]; required: string[] }[] =>
    specs.flatMap((spec) => [
      {
        path: [...parents, spec.name],
        required: Object.entries(spec.options ?? {})
          .filter(([, option]) => typeof option === 'object' && (option as { required?: boolean }).required === true)
          .map(([flags]) => flags),
      },
      ...requiring((spec as { subcommands?: CommandDeclaration[] }).subcommands ?? [], [...parents, spec.name]),
    ]);
  const REQUIRING = requiring(COMMANDS).filter(({ required }) => required.length > 0);
  // a value each required option takes, so that only what is left out is wrong
  const VALUES: Record<string, string> = {
    '--deadline': '2026-12-01',
    '--expected': '3',
    '--total-score': '10',
    '--cum-method': 'sum',
    '--assignment': '5',
  };
  const long = (flags: string) => /--[\w-]+/.exec(flags)![0];

  it(`are all named at once when left out, in text and in --json, and marked in the help (exit 2; seed ${propertySeed(5194)})`, async () => {
    expect(REQUIRING.map(({ path }) => path.join(' '))).toContain('assign');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...REQUIRING).chain(({ path, required }) =>
          fc.record({
            path: fc.constant(path),
            required: fc.constant(required),
            given: fc.subarray(required, { maxLength: required.length - 1 }),
          }),
        ),
        fc.boolean(),
        async ({ path, required, given }, json) => {
          const args = given.flatMap((flags) => [long(flags), VALUES[long(flags)] ?? 'x']);
          const run = await runKct([...(json ? ['--json'] : []), ...path, ...args]);
          expect(run.code, run.stderr).toBe(2);
          const message = json ? JSON.parse(run.stderr.trim()).error.message : run.stderr.split('\n')[0];
          const missing = required.filter((flags) => !given.includes(flags));
          for (const flags of required) expect(message.includes(`'${flags}'`), message).toBe(missing.includes(flags));
          const help = await runKct([...path, '--help']);
          for (const flags of required) expect(help.stdout).toMatch(new RegExp(`${long(flags)}[^\\n]*(\\n {10,}[^\\n]*)*\\(required\\)`));
        },
      ),
      { numRuns: propertyRuns(30), seed: propertySeed(5194) },
    );
  });
});
