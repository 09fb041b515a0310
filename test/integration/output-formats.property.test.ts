// `--output` means the same thing in every command (issue 33, item 3), as a property over generated
// runs (seeded, shrinking): every command of kct's command tree, each way of choosing each format
// (its --output, --json, KCT_OUTPUT), with and without --no-wait where it has it, on a terminal and
// on a pipe, with generated text in what it prints (student ids, names, titles), prints what that
// format promises: json one JSON document, ndjson a JSON object a line, csv rows as many cells as
// their header, and a table that is not JSON; under --json every line on stderr is a JSON object.
// A command added to kct without a case here fails the first test, which names it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CommandDeclaration } from '../../src/cli/core/define-command.js';
import { COMMANDS } from '../../src/cli/core/program.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../../src/cli/render/format.js';
import { cell, guardFormula } from '../../src/cli/render/rows.js';
import { moodleWorksheet, writeCsv } from '../unit/platforms/fixtures.js';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { kctEnv, parseJson, ROOT, type RunResult, runKct, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const EXAMPLES_DIR = join(ROOT, 'examples');
const essay = `${'Uniforms help students focus on learning. '.repeat(8)}`;

/** What one generated run hands a case: its own folder and config, and text to print back. */
interface Run {
  dir: string;
  /** Generated text a command prints back (a student id, a name, a title). */
  label: string;
  /** A callback was sent to this run's `kct callbacks listen`. */
  sent?: boolean;
}

interface Case {
  /** The command's arguments and flags for this run (files it needs are made in run.dir). */
  args: (run: Run) => string[] | Promise<string[]>;
  /** What stdin holds. */
  input?: (run: Run) => string;
  /** More environment. */
  env?: () => Record<string, string>;
  /** The other side of a run that waits for something (a callback to `kct callbacks listen`), given its stderr so far. */
  meanwhile?: (stderr: string, run: Run) => void;
  /** TODO: the case is written, and skipped until this is done (who and what). */
  pending?: string;
}

/** What the cases share, made once in beforeAll. */
const made = {} as {
  taskId: string;
  batchId: string;
  assignmentId: string;
  savedRun: string;
  questions: string;
  rubrics: string;
  secret: string;
};

/** kct as the sandbox's `user`, with a config of this run's own (what `config set` writes stays there). */
function env(run: Pick<Run, 'dir'>, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return kctEnv(run.dir, {
    KCT_BASE_URL: shared.sandbox.baseUrl,
    KCT_API_KEY: shared.sandbox.keys.user,
    KCT_PAGER: '',
    ...extra,
  });
}

async function setup(
  args: string[],
  run: Pick<Run, 'dir'>,
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<RunResult> {
  const result = await runKct(args, { env: env(run, options.env), input: options.input });
  if (result.code !== 0) throw new Error(`setup kct ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result;
}

function file(run: Run, name: string, content: string): string {
  const path = join(run.dir, name);
  writeFileSync(path, content);
  return path;
}

/** A signed delivery of a batch event, as the service sends it. */
function signed(label: string): { id: string; timestamp: string; signature: string; body: string } {
  const id = `msg_${Math.random().toString(16).slice(2)}`;
  const date = new Date();
  const body = JSON.stringify({ type: 'batch.completed', data: { task_id: made.batchId, status: 'SUCCESS', count: 2, label } });
  const signature = new Webhook(made.secret).sign(id, date, body);
  return { id, timestamp: String(Math.floor(date.getTime() / 1000)), signature, body };
}

/** A saved run of two marked students, as `kct one-pass --output ndjson` writes one (what `kct grades` reads). */
function gradedRun(run: Run): string {
  const row = (id: string, name: string, score: number) => ({
    file: `dl/${id}`,
    student_id: id,
    student_name: name,
    status: 'SUCCESS',
    score,
    max_score: 20,
    evaluation: [{ item: 'Argument', score, max_score: 20, feedback: `Well argued, ${name}.` }],
  });
  return file(run, 'marks.ndjson', `${JSON.stringify(row('101', 'Ada Lovelace', 13.5))}\n${JSON.stringify(row('102', run.label, 18))}\n`);
}

/** `kct keys` signs in to the product as the sandbox's `user`. */
const signIn = () => ({ KCT_ACCOUNT: 'user', KCT_PASSWORD: shared.sandbox.passwords.user });

/** Every command of the tree, by its words after `kct`. One line each. */
const CASES: Record<string, Case> = {
  credits: { args: () => [] },
  models: { args: (run) => (run.label.length % 2 ? ['--ready'] : []) },
  'models show': { args: () => ['12'] },
  'models create': {
    args: (run) => ['--questions', made.questions, '--rubrics', made.rubrics, `--name=${run.label}`, '--yes'],
  },
  'ingest questions': {
    args: (run) => [join(EXAMPLES_DIR, 'question-paper.txt'), '--out', join(run.dir, 'q.yaml'), `--name=${run.label}`],
  },
  'ingest rubrics': {
    args: (run) => [join(EXAMPLES_DIR, 'rubric.txt'), '--out', join(run.dir, 'r.yaml'), '--total-score', '30', '--cum-method', 'sum'],
  },
  'one-pass': {
    // one answer (a record), or a class (rows, a summary on stderr), waited for or not
    args: (run) => {
      const wait = run.label.length % 2 ? ['--no-wait'] : [];
      if (run.label.length % 3 !== 0) return ['--model', '12', '--text', `${essay} ${run.label}`, `--student-id=${run.label}`, ...wait];
      const folder = join(run.dir, 'class');
      mkdirSync(folder);
      writeFileSync(join(folder, 'a.txt'), `${essay} ${run.label} a`);
      writeFileSync(join(folder, 'b.txt'), `${essay} ${run.label} b`);
      writeFileSync(join(folder, 'copy of a.txt'), `${essay} ${run.label} a`);
      return ['--model', '12', folder, ...wait];
    },
  },
  'grades moodle': {
    args: (run) => {
      const sheet = file(run, 'Grades.csv', '');
      writeFileSync(
        sheet,
        moodleWorksheet([
          { id: 101, name: 'Ada Lovelace' },
          { id: 102, name: run.label },
        ]).bytes,
      );
      return [gradedRun(run), sheet];
    },
  },
  'grades canvas': {
    args: (run) => {
      const header = ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', 'Essay 1 (1234)'];
      const rows = [
        header,
        ['    Points Possible', '', '', '', '', '20.00'],
        ['Lovelace, Ada', '101', '', '', 'Y9', ''],
        [run.label, '102', '', '', 'Y9', ''],
      ];
      const book = file(run, 'export.csv', '');
      writeFileSync(book, writeCsv({ rows }).bytes);
      return [gradedRun(run), book, '--assignment', 'Essay 1'];
    },
  },
  status: { args: (run) => [made.taskId, ...(run.label.length % 2 ? ['--watch'] : [])] },
  result: { args: (run) => [run.label.length % 2 ? made.batchId : made.taskId] },
  cancel: {
    args: async (run) => {
      // text of its own (the folder's name): the same answer again would be the cancelled task again
      const text = `${essay} KCT-SANDBOX-SLOW ${run.dir} ${run.label}`;
      const task = await setup(['one-pass', '--model', '12', '--text', text, '--no-wait', '--json'], run);
      return [parseJson<{ task_id: string }>(task.stdout).task_id];
    },
  },
  assign: {
    args: (run) => ['--model', '12', `--name=${run.label}`, '--desc', 'd', '--deadline', '2030-01-31', '--expected', '3'],
  },
  evaluate: { args: (run) => ['--assignment', made.assignmentId, '--text', `${essay} ${run.label}`, `--student-id=${run.label}`] },
  batch: {
    args: (run) => [
      file(
        run,
        'items.jsonl',
        [1, 2].map((n) => JSON.stringify({ paper_content: `${essay} ${n} ${run.label}`, student_id: `${run.label} ${n}` })).join('\n'),
      ),
      '--model',
      '12',
    ],
  },
  upload: { args: (run) => [file(run, `${run.label.replaceAll('/', '_')}.txt`, essay)] },
  rewrite: { args: () => [made.taskId, '--style', 'paragraph'] },
  report: { args: (run) => [made.savedRun, '--out', join(run.dir, 'class.html'), `--title=${run.label}`] },
  'callbacks listen': {
    args: () => ['--port', '0', '--count', '1'],
    env: () => ({ KCT_WEBHOOK_SECRET: made.secret }),
    meanwhile: (stderr, run) => {
      const url = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr)?.[1];
      if (!url || run.sent) return;
      run.sent = true;
      const delivery = signed(run.label);
      void fetch(url, {
        method: 'POST',
        body: delivery.body,
        headers: { 'webhook-id': delivery.id, 'webhook-timestamp': delivery.timestamp, 'webhook-signature': delivery.signature },
      });
    },
  },
  'callbacks verify': {
    env: () => ({ KCT_WEBHOOK_SECRET: made.secret }),
    args: (run) => {
      const delivery = signed(run.label);
      return [
        '--id',
        delivery.id,
        '--timestamp',
        delivery.timestamp,
        '--signature',
        delivery.signature,
        '--body',
        file(run, 'body.json', delivery.body),
      ];
    },
  },
  'auth login': { args: () => ['--with-key'], input: () => shared.sandbox.keys.user },
  'auth status': { args: () => [] },
  'auth logout': {
    args: async (run) => {
      await setup(['auth', 'login', '--with-key'], run, { input: shared.sandbox.keys.user });
      return [];
    },
  },
  'keys list': { args: () => [], env: signIn },
  'keys create': { args: (run) => ['--scope', 'user', `--name=${run.label}`], env: signIn },
  'keys revoke': {
    env: signIn,
    args: async (run) => {
      const key = await setup(['keys', 'create', '--scope', 'user', '--json'], run, { env: signIn() });
      return [String(parseJson<{ id: number }>(key.stdout).id), '--yes'];
    },
  },
  'config get': { args: () => ['model'] },
  'config set': { args: (run) => ['account', run.label] },
  'config unset': {
    args: async (run) => {
      await setup(['config', 'set', 'model', '12'], run);
      return ['model'];
    },
  },
  'config list': { args: () => [] },
  'config path': { args: () => [] },
  doctor: { args: () => [] },
  version: { args: () => [] },
  // a hidden command, and a help topic that prints data
  'help exit-codes': { args: () => [] },
};

/** Commands that print no format of kct's, and why (docs/guides/configuration-and-keys.md, "Output formats"). */
const NOT_FORMATTED: Record<string, string> = {
  sandbox:
    "runs until stopped; its --json line is what this file's sandbox is started from (harness.ts), and the command is sandbox-load's",
  'models new':
    'guided on a terminal (an editor, questions); it refuses elsewhere with exit 2, and its last record goes through the exporter',
  api: 'prints the body as the service sent it, whatever the format, as gh api does',
  completion: 'prints a shell script',
};

/** Runnable commands by their words, with the flags their declarations give them. */
function runnable(declarations: CommandDeclaration[], parents: string[] = []): { path: string; flags: string[] }[] {
  return declarations.flatMap((declaration) => {
    if (declaration.hidden) return [];
    const words = [...parents, declaration.name];
    const own = declaration.load ? [{ path: words.join(' '), flags: Object.keys(declaration.options ?? {}) }] : [];
    return [...own, ...runnable(declaration.subcommands ?? [], words)];
  });
}

const COMMAND_LIST = [...runnable(COMMANDS), { path: 'help exit-codes', flags: [] }];

/** How a run chooses its format. */
interface Way {
  via: 'flag' | 'json' | 'env';
  format: OutputFormat;
}

function waysOf(flags: string[]): Way[] {
  const hasOutput = flags.some((flag) => /--output <format>/.test(flag));
  return [...OUTPUT_FORMATS.map((format): Way => ({ via: hasOutput ? 'flag' : 'env', format })), { via: 'json', format: 'json' }];
}

/** Printable text with what breaks formats: separators, quotes, formulas, wide characters. */
const label = fc
  .string({
    unit: fc.constantFrom('a', 'B', '7', ' ', ',', '"', "'", ';', '=', '+', '-', '@', 'é', '学', '|', '{', '[', ':'),
    minLength: 1,
    maxLength: 10,
  })
  .map((text) => `s${text}`.trim());

/** What `format` promises on stdout, or a message naming what it broke. */
function checkStdout(format: OutputFormat, stdout: string): void {
  if (format === 'json') {
    expect(() => JSON.parse(stdout), 'json: one JSON document').not.toThrow();
    expect(stdout.endsWith('\n'), 'json: ends with a newline').toBe(true);
    return;
  }
  if (format === 'ndjson') {
    expect(stdout === '' || stdout.endsWith('\n'), 'ndjson: every line ends with a newline').toBe(true);
    for (const line of stdout.split('\n').slice(0, -1)) {
      const value = JSON.parse(line) as unknown;
      expect(typeof value === 'object' && value !== null && !Array.isArray(value), `ndjson: an object a line, not ${line}`).toBe(true);
    }
    return;
  }
  if (format === 'csv') {
    // csv-parse throws when a row has more or fewer cells than the header
    const rows = parse(stdout, { relax_column_count: false }) as string[][];
    expect(rows.length, 'csv: a header at least').toBeGreaterThanOrEqual(1);
    return;
  }
  let document: unknown;
  try {
    document = JSON.parse(stdout);
  } catch {
    document = undefined;
  }
  expect(typeof document === 'object' && document !== null, 'a table is not a JSON document').toBe(false);
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  const objects = lines.filter((line) => {
    try {
      return typeof JSON.parse(line) === 'object';
    } catch {
      return false;
    }
  });
  expect(lines.length === 0 || objects.length < lines.length, 'a table is not JSON lines').toBe(true);
}

/** Under --json, every line on stderr is one JSON object: an error or a notice. */
function checkStderr(stderr: string): void {
  for (const line of stderr.split('\n').filter((text) => text !== '')) {
    let value: unknown;
    expect(() => (value = JSON.parse(line)), `stderr under --json: ${line}`).not.toThrow();
    expect(Object.keys(value as object), `stderr under --json: ${line}`).toSatisfy(
      (keys: string[]) => keys.length === 1 && (keys[0] === 'notice' || keys[0] === 'error'),
    );
  }
}

beforeAll(async () => {
  const dir = tempDir('kct-formats-');
  const at = { dir };
  const one = await setup(['one-pass', '--model', '12', '--text', `${essay} (a finished task)`, '--json'], at);
  made.taskId = parseJson<{ task_id: string }>(one.stdout).task_id;
  const items = join(dir, 'items.jsonl');
  writeFileSync(items, ['a', 'b'].map((s) => JSON.stringify({ paper_content: `${essay} ${s}`, student_id: s })).join('\n'));
  const batch = await setup(['batch', items, '--model', '12', '--no-wait', '--json'], at);
  made.batchId = parseJson<{ task_id: string }[]>(batch.stdout)[0].task_id;
  await setup(['status', made.batchId, '--watch'], at);
  made.savedRun = join(dir, 'marks.ndjson');
  // a run saved as the guide says (`kct result <batch> --output ndjson` has no file names, which kct report refuses)
  writeFileSync(made.savedRun, (await setup(['batch', items, '--model', '12', '--output', 'ndjson'], at)).stdout);
  const assignment = await setup(
    ['assign', '--model', '12', '--name', 'n', '--desc', 'd', '--deadline', '2030-01-31', '--expected', '9', '--json'],
    at,
  );
  made.assignmentId = String(parseJson<{ assignment_id: string | number }>(assignment.stdout).assignment_id);
  made.questions = join(dir, 'questions.yaml');
  made.rubrics = join(dir, 'rubrics.yaml');
  await setup(['ingest', 'questions', join(EXAMPLES_DIR, 'question-paper.txt'), '--out', made.questions], at);
  await setup(
    ['ingest', 'rubrics', join(EXAMPLES_DIR, 'rubric.txt'), '--total-score', '30', '--cum-method', 'sum', '--out', made.rubrics],
    at,
  );
  made.secret = shared.sandbox.webhookSecret;
}, 120_000);

describe('every command prints each format as that format promises', () => {
  it('every command of the tree has a case here, or a reason it prints no format', () => {
    const paths = COMMAND_LIST.map((command) => command.path);
    expect(
      paths.filter((path) => !(path in CASES) && !(path in NOT_FORMATTED)),
      'commands with no case',
    ).toEqual([]);
    expect(
      Object.keys({ ...CASES, ...NOT_FORMATTED }).filter((path) => !paths.includes(path)),
      'cases of no command',
    ).toEqual([]);
  });

  const runs = propertyRuns(3);
  for (const command of COMMAND_LIST.filter((c) => c.path in CASES)) {
    const spec = CASES[command.path];
    const ways = waysOf(command.flags);
    const waits = command.flags.some((flag) => flag.startsWith('--no-wait')) ? [false, true] : [false];
    // every way of every format, on a pipe and a terminal, with and without --no-wait, then generated runs
    const examples = ways.flatMap((way) =>
      [false, true].flatMap((tty) => waits.map((noWait): [Way, boolean, boolean, string] => [way, tty, noWait, 's, "=1"'])),
    );
    (spec.pending ? it.skip : it)(
      `kct ${command.path}${spec.pending ? ` (${spec.pending})` : ''}`,
      async () => {
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...ways), fc.boolean(), fc.constantFrom(...waits), label, async (way, tty, noWait, text) => {
            const run: Run = { dir: tempDir('kct-format-run-'), label: text };
            const args = [
              ...command.path.split(' '),
              ...(await spec.args(run)),
              ...(noWait ? ['--no-wait'] : []),
              ...(way.via === 'flag' ? ['--output', way.format] : way.via === 'json' ? ['--json'] : []),
            ];
            const result = await runKct(args, {
              env: env(run, { ...spec.env?.(), ...(way.via === 'env' ? { KCT_OUTPUT: way.format } : {}) }),
              input: spec.input?.(run),
              tty,
              columns: 100,
              timeoutMs: 60_000,
              onStderr: spec.meanwhile ? (_, all) => spec.meanwhile!(all, run) : undefined,
            });
            const what = `kct ${args.join(' ')} (${tty ? 'terminal' : 'pipe'})\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
            expect(result.code, what).toBe(0);
            try {
              checkStdout(way.format, result.stdout);
              if (way.via === 'json') checkStderr(result.stderr);
            } catch (error) {
              throw new Error(`${(error as Error).message}\n${what}`);
            }
          }),
          { examples, numRuns: examples.length + runs, seed: propertySeed(3303) },
        );
      },
      600_000,
    );
  }
});

describe('csv and json agree', () => {
  it('a CSV column named like a key of the JSON records holds that key, row by row', async () => {
    const run = { dir: tempDir('kct-agree-') };
    const lists: [string[], Record<string, string>][] = [
      [['models'], {}],
      [['keys', 'list'], signIn()],
      [['help', 'exit-codes'], {}],
    ];
    for (const [args, extra] of lists) {
      const json = parseJson<Record<string, unknown>[]>((await setup([...args, '--json'], run, { env: extra })).stdout);
      const [header, ...rows] = parse((await setup(args, run, { env: { ...extra, KCT_OUTPUT: 'csv' } })).stdout) as string[][];
      expect(rows).toHaveLength(json.length);
      const named = header.filter((name) => json.every((record) => name in record));
      expect(named.length, `kct ${args.join(' ')}: columns named as JSON keys`).toBeGreaterThan(0);
      rows.forEach((row, i) => {
        for (const name of named) {
          const value = json[i][name];
          const text = typeof value === 'number' ? String(value) : guardFormula(cell(value));
          expect(row[header.indexOf(name)], `kct ${args.join(' ')}: row ${i}, ${name}`).toBe(text);
        }
      });
    }
  });
});
