// The promises of a class run, as properties over generated sequences (fast-check, seeded,
// shrinking): a folder of answers changes (answers added, removed, renamed, edited, copied, an
// empty student folder) and is marked again after each change with generated flags (--via
// one-pass|batch|auto, --jobs, with and without --resume, sometimes interrupted mid-run). Against a
// real sandbox on a loopback port, with kct's main() in-process over the test IO:
//   - credits charged equal the distinct answers (file name and content) ever sent, never more;
//   - every input is accounted for in csv, ndjson, json and the report alike;
//   - the exit code agrees with the rows;
//   - a replay is never reported as a new task.
// KCT_PROPERTY_RUNS raises the number of sequences (docs/testing.md). Nothing here starts a
// process, so it lives in test/integration.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { testIO } from '../unit/cli/test-io.js';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { launch, type TestSandbox } from '../unit/sandbox-helpers.js';

/** One sandbox, started afresh when a long search has spent most of its credits (1,000 for the seeded user). */
let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await launch({ latencyMs: 0 });
});
const made: string[] = [];
afterAll(async () => {
  await sandbox?.dispose();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function enoughCredits(): Promise<void> {
  if ((await credits()) >= 300) return;
  await sandbox.dispose();
  sandbox = await launch({ latencyMs: 0 });
}

type Format = 'csv' | 'ndjson' | 'json';

interface Flags {
  via: 'one-pass' | 'batch' | 'auto';
  jobs: number;
  resume: boolean;
  recursive: boolean;
  format: Format;
  /** Abort the run once this many rows are printed (a Ctrl-C); undefined: run to the end. */
  interruptAfter?: number;
  /** --no-wait: print the accepted tasks (a replay must show its state now). */
  noWait: boolean;
  /** --report: the class report must hold every row too. */
  report: boolean;
}

type Change =
  | { kind: 'add'; name: number; text: number }
  | { kind: 'remove'; at: number }
  | { kind: 'rename'; at: number; to: number }
  | { kind: 'edit'; at: number; text: number }
  | { kind: 'copy'; at: number; to: number }
  | { kind: 'copy-into'; at: number; folder: number }
  | { kind: 'empty-folder'; name: number };

const NAMES = ['a1', 'Ana Pérez', 'Él', 'essay with spaces & "quotes"', 'pupil-2', 'pupil-10', 'Zoe Copy of strong', 'b3', 'c4', 'd5'];
const FOLDERS = ['Eve Kim_2222_assignsubmission_file_', 'late', 'Bo Chen_3333_assignsubmission_file_'];
const TEXTS = Array.from(
  { length: 8 },
  (_, i) =>
    `Uniforms should not be compulsory, answer ${i}: they cost families money and stop pupils from expressing themselves. ${'Evidence and argument follow. '.repeat(i + 1)}`,
);

const change: fc.Arbitrary<Change> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('add' as const), name: fc.nat(NAMES.length - 1), text: fc.nat(TEXTS.length - 1) }),
  },
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat(20) }),
  fc.record({ kind: fc.constant('rename' as const), at: fc.nat(20), to: fc.nat(NAMES.length - 1) }),
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat(20), text: fc.nat(TEXTS.length - 1) }),
  fc.record({ kind: fc.constant('copy' as const), at: fc.nat(20), to: fc.nat(NAMES.length - 1) }),
  fc.record({ kind: fc.constant('copy-into' as const), at: fc.nat(20), folder: fc.nat(FOLDERS.length - 1) }),
  fc.record({ kind: fc.constant('empty-folder' as const), name: fc.nat(FOLDERS.length - 1) }),
);

const flagsArb: fc.Arbitrary<Flags> = fc
  .record({
    via: fc.constantFrom('one-pass' as const, 'batch' as const, 'auto' as const),
    jobs: fc.integer({ min: 1, max: 4 }),
    resume: fc.boolean(),
    recursive: fc.boolean(),
    format: fc.constantFrom('csv' as const, 'ndjson' as const, 'json' as const),
    interruptAfter: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 4, nil: undefined }),
    noWait: fc.boolean(),
    report: fc.boolean(),
  })
  .map((flags) => (flags.noWait ? { ...flags, interruptAfter: undefined, report: false } : flags));

/** The folder as the model sees it: path (relative, "/"-separated) -> text; student folders made. */
interface Model {
  files: Map<string, string>;
  folders: Set<string>;
}

/** A nonce per generated case: cases share one sandbox, and a text sent by an earlier case would be a replay. */
let caseNumber = 0;
const textOf = (i: number) => `${TEXTS[i]} (case ${caseNumber})`;

function apply(model: Model, dir: string, step: Change): void {
  const names = [...model.files.keys()].sort();
  const pick = (at: number) => (names.length === 0 ? undefined : names[at % names.length]);
  const path = (name: string) => join(dir, name);
  if (step.kind === 'add' || step.kind === 'edit') {
    const name = step.kind === 'add' ? `${NAMES[step.name]}.txt` : pick(step.at);
    if (!name) return;
    model.files.set(name, textOf(step.text));
    writeFileSync(path(name), textOf(step.text));
  } else if (step.kind === 'remove') {
    const name = pick(step.at);
    if (!name) return;
    model.files.delete(name);
    rmSync(path(name));
  } else if (step.kind === 'rename' || step.kind === 'copy' || step.kind === 'copy-into') {
    const name = pick(step.at);
    if (!name) return;
    // into a student folder under the same name: the same file name and content, another path
    const to =
      step.kind === 'copy-into'
        ? `${FOLDERS[step.folder]}/${basename(name)}`
        : join(dirname(name), `${NAMES[step.to]}.txt`).replace(/^\.\//, '');
    if (model.files.has(to)) return;
    model.files.set(to, model.files.get(name)!);
    if (step.kind === 'copy-into') {
      model.folders.add(FOLDERS[step.folder]);
      mkdirSync(path(FOLDERS[step.folder]), { recursive: true });
    }
    if (step.kind === 'rename') {
      model.files.delete(name);
      renameSync(path(name), path(to));
    } else {
      writeFileSync(path(to), model.files.get(name)!);
    }
  } else {
    const name = FOLDERS[step.name];
    model.folders.add(name);
    mkdirSync(path(name), { recursive: true });
  }
}

/** What a run over the folder holds: the answers it sends, and the rows of folders (EMPTY, NOT_ENTERED). */
function expected(model: Model, recursive: boolean): { answers: [string, string][]; folderRows: Map<string, string> } {
  const answers = [...model.files].filter(([name]) => recursive || !name.includes('/'));
  const folderRows = new Map<string, string>();
  for (const folder of model.folders) {
    const holds = [...model.files.keys()].some((name) => name.startsWith(`${folder}/`));
    if (!recursive) folderRows.set(folder, 'NOT_ENTERED');
    else if (!holds) folderRows.set(folder, 'EMPTY');
  }
  return { answers, folderRows };
}

interface Row {
  file: string;
  status: string;
  task_id?: string | null;
  credits_charged?: number | null;
  replayed?: boolean;
  message?: string;
}

/** Runs kct in-process against the sandbox; aborting after `interruptAfter` rows is a Ctrl-C. */
async function kct(
  args: string[],
  env: NodeJS.ProcessEnv,
  interruptAfter?: number,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { io, stdout, stderr } = testIO();
  const controller = new AbortController();
  if (interruptAfter !== undefined) {
    const write = stdout._write.bind(stdout);
    let lines = 0;
    stdout._write = (chunk, encoding, done) => {
      lines += String(chunk).split('\n').length - 1;
      if (lines > interruptAfter) controller.abort();
      write(chunk, encoding, done);
    };
    if (interruptAfter === 0) setImmediate(() => controller.abort());
  }
  // a run that never ends is a failure with its own output, not a test that times out saying nothing
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`kct ${args.join(' ')} did not end in 60 s\n--- stderr\n${stderr.text()}\n--- stdout\n${stdout.text()}`)),
      60_000,
    );
  });
  try {
    const code = await Promise.race([main(args, { io, env, handleSignals: false, signal: controller.signal }), hang]);
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    clearTimeout(timer);
  }
}

async function credits(): Promise<number> {
  const reply = await sandbox.call('GET', '/credits');
  return reply.body.credits ?? reply.body.data?.credits;
}

/** The rows of one output, whatever the format. */
function rowsOf(format: Format, stdout: string): Row[] {
  if (format === 'json') return stdout.trim() === '' ? [] : (JSON.parse(stdout) as Row[]);
  if (format === 'ndjson')
    return stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Row);
  return parse(stdout, { columns: true, skip_empty_lines: true }) as Row[];
}

/** Waits until no task of the user is unfinished (what an interrupted or --no-wait run left): nothing reserved. */
async function settle(): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    const reply = await sandbox.call('GET', '/credits');
    if ((reply.body.reserved ?? reply.body.data?.reserved) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the sandbox still has unfinished tasks after 40 s');
}

const runs = propertyRuns(20);

describe('re-running a changing class folder (properties, against a real sandbox)', () => {
  it(
    'charges each distinct answer once, accounts for every input, and tells the truth in its exit code',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(change, flagsArb), { minLength: 2, maxLength: 4 }),
          fc.array(change, { minLength: 2, maxLength: 5 }),
          async (steps, start) => {
            await settle(); // what an earlier case left running is charged before this one counts
            await enoughCredits();
            caseNumber += 1;
            const home = mkdtempSync(join(tmpdir(), 'kct-rerun-'));
            made.push(home);
            const dir = join(home, 'class');
            mkdirSync(dir);
            const journal = join(home, 'marks.journal');
            const env: NodeJS.ProcessEnv = {
              KCT_BASE_URL: sandbox.baseUrl,
              KCT_API_KEY: sandbox.keys.user,
              KCT_CONFIG_DIR: join(home, 'config'),
              KCT_PAGER: '',
              KCT_RETRY_BASE_DELAY: '1ms',
              KCT_POLL_INTERVAL: '50ms',
              KCT_BATCH_FROM: '3',
              NO_COLOR: '1',
            };
            const model: Model = { files: new Map(), folders: new Set() };
            for (const step of start) apply(model, dir, step);
            model.files.set('seed.txt', textOf(0));
            writeFileSync(join(dir, 'seed.txt'), textOf(0));
            const startCredits = await credits();
            /** Distinct (file name, content) answers sent by any run so far: each may be charged once. */
            const sent = new Set<string>();
            /** Those of runs that finished: each must have been charged. */
            const marked = new Set<string>();
            for (const [step, flags] of steps) {
              apply(model, dir, step);
              const args = ['one-pass', dir, '--model', '12', '--via', flags.via, '--jobs', String(flags.jobs), '--output', flags.format];
              if (flags.resume) args.push('--resume', journal);
              if (flags.recursive) args.push('--recursive');
              if (flags.noWait) args.push('--no-wait');
              const report = join(home, 'class.html');
              rmSync(report, { force: true });
              if (flags.report) args.push('--report', report);
              const { answers: included, folderRows } = expected(model, flags.recursive);
              // an answer is its file name and content: the same name and bytes in two folders is one submission
              const answers = included.map(([name, text]) => `${basename(name)}\n${text}`);
              for (const answer of answers) sent.add(answer);
              const run = await kct(args, env, flags.interruptAfter);
              const context = `${args.join(' ')}\n--- stderr\n${run.stderr}\n--- stdout\n${run.stdout}`;
              if (run.code === 130) {
                expect(run.stderr, context).toMatch(
                  /interrupted; (no task kct knows of is left unfinished|\d+ tasks? not yet seen finished may still be running)/,
                );
                await settle();
                continue;
              }
              if (included.length === 0) {
                // nothing to send: a usage error that says why (and names empty student folders), nothing charged
                expect(run.code, context).toBe(2);
                expect(run.stderr, context).toMatch(/no answer files|nothing to mark/);
                continue;
              }
              expect(run.code, context).toBe(0);
              // every input accounted for: each file a row, each empty folder a row (EMPTY, or NOT_ENTERED without --recursive)
              const rows = rowsOf(flags.format, run.stdout);
              const byFile = new Map(rows.map((row) => [row.file, row]));
              expect(rows.length, context).toBe(included.length + folderRows.size);
              for (const [name, text] of included) {
                const row = byFile.get(join(dir, name));
                // a replay is never reported as a new task: an answer marked before shows its state now
                if (flags.noWait && !marked.has(`${basename(name)}\n${text}`))
                  expect(row?.status, `${name}\n${context}`).toMatch(/^(QUEUED|UPLOADING|SUBMITTED|PROGRESS|SUCCESS)$/);
                else expect(row?.status, `${name}\n${context}`).toBe('SUCCESS');
              }
              if (flags.noWait) await settle();
              for (const answer of answers) marked.add(answer);
              if (flags.report) {
                const html = readFileSync(report, 'utf8');
                expect(html.match(/<td role="cell" class="who">/g)?.length, context).toBe(rows.length);
                expect(html, context).toContain(
                  `${included.length} <small>of ${included.length} answer${included.length === 1 ? '' : 's'}</small>`,
                );
              }
              for (const [folder, status] of folderRows)
                expect(byFile.get(`${join(dir, folder)}/`)?.status, `${folder}/\n${context}`).toBe(status);
              // the exit code agrees with the rows: 0, and every answer marked
              expect(
                rows.every((row) =>
                  ['SUCCESS', 'EMPTY', 'NOT_ENTERED', ...(flags.noWait ? ['QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS'] : [])].includes(
                    row.status,
                  ),
                ),
                context,
              ).toBe(true);
              // charged once: at least every answer of the finished runs, never more than every answer ever sent
              const charged = startCredits - (await credits());
              expect(
                charged,
                `charged ${charged}; ${marked.size} answers marked, ${sent.size} ever sent\n${context}`,
              ).toBeGreaterThanOrEqual(marked.size);
              expect(charged, `charged ${charged}; ${marked.size} answers marked, ${sent.size} ever sent\n${context}`).toBeLessThanOrEqual(
                sent.size,
              );
            }
          },
        ),
        { numRuns: runs, seed: propertySeed(2121), endOnFailure: process.env.KCT_PROPERTY_SHRINK === '0' },
      );
    },
    Math.max(180_000, runs * 4000),
  );
});
