// The promises of a class run, as properties over generated sequences (fast-check, seeded,
// shrinking): a folder of answers changes (answers added, removed, renamed, edited, copied, moved
// into student folders, an empty student folder) and is marked again after each change with
// generated flags (--via one-pass|batch|auto, --jobs, --student-id-from, --group-by folder, with and
// without --resume, --no-wait, sometimes interrupted mid-run). Against a real sandbox on a loopback
// port, with kct's main() in-process over the test IO:
//   - an identity (the content of an answer, never its name) is charged at most once, and every
//     identity of a finished run is charged;
//   - every input is accounted for in csv, ndjson, json and the report alike;
//   - every output of a run agrees with its record: the rows, the summary's counts and credits, the
//     report's counts, the --resume journal's final events, and the exit code;
//   - identical answers of one run share one task and say so (duplicate_of);
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
  /** How answers are named (a label: never part of an answer's identity). */
  studentIdFrom: 'name' | 'folder' | 'none';
  /** Each student folder's files are one answer (implies --recursive). */
  groupByFolder: boolean;
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
  | { kind: 'move-into'; at: number; folder: number }
  | { kind: 'empty-folder'; name: number };

const NAMES = ['a1', 'Ana Pérez', 'Él', 'essay with spaces & "quotes"', 'pupil-2', 'pupil-10', 'Zoe Copy of strong', 'b3', 'c4', 'd5'];
// plain student folders: a folder of nothing but a platform's names would be read as its download
const FOLDERS = ['Eve Kim', 'late', 'Bo Chen'];
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
  fc.record({ kind: fc.constant('move-into' as const), at: fc.nat(20), folder: fc.nat(FOLDERS.length - 1) }),
  fc.record({ kind: fc.constant('empty-folder' as const), name: fc.nat(FOLDERS.length - 1) }),
);

const flagsArb: fc.Arbitrary<Flags> = fc
  .record({
    via: fc.constantFrom('one-pass' as const, 'batch' as const, 'auto' as const),
    jobs: fc.integer({ min: 1, max: 4 }),
    resume: fc.boolean(),
    recursive: fc.boolean(),
    studentIdFrom: fc.constantFrom('name' as const, 'folder' as const, 'none' as const),
    groupByFolder: fc.boolean(),
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

/** A nonce per generated case: cases share one sandbox, and a text sent by an earlier case would be reused. */
let caseNumber = 0;
const textOf = (i: number) => `${TEXTS[i]} (case ${caseNumber})`;
const byNaturalOrder = new Intl.Collator('en', { numeric: true }).compare;

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
  } else if (step.kind === 'rename' || step.kind === 'copy' || step.kind === 'copy-into' || step.kind === 'move-into') {
    const name = pick(step.at);
    if (!name) return;
    // into a student folder under the same name: the same content, another path
    const into = step.kind === 'copy-into' || step.kind === 'move-into';
    const to = into ? `${FOLDERS[step.folder]}/${basename(name)}` : join(dirname(name), `${NAMES[step.to]}.txt`).replace(/^\.\//, '');
    if (model.files.has(to)) return;
    model.files.set(to, model.files.get(name)!);
    if (into) {
      model.folders.add(FOLDERS[step.folder]);
      mkdirSync(path(FOLDERS[step.folder]), { recursive: true });
    }
    if (step.kind === 'rename' || step.kind === 'move-into') {
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

/** One answer a run sends: its row's label and its identity (its texts in order: never its names). */
interface Answer {
  label: string;
  identity: string;
}

/** What a run over the folder holds: the answers it sends, and the rows of folders (EMPTY, NOT_ENTERED). */
function expected(model: Model, dir: string, flags: Flags): { answers: Answer[]; folderRows: Map<string, string> } {
  // --student-id-from folder enters the student folders (the model's are one level deep)
  const recursive = flags.recursive || flags.groupByFolder || flags.studentIdFrom === 'folder';
  const answers: Answer[] = [];
  const grouped = new Map<string, string[]>();
  for (const [name, text] of model.files) {
    if (!name.includes('/')) answers.push({ label: join(dir, name), identity: JSON.stringify([text]) });
    else if (!recursive) continue;
    else if (!flags.groupByFolder) answers.push({ label: join(dir, name), identity: JSON.stringify([text]) });
    else grouped.set(name.split('/')[0], [...(grouped.get(name.split('/')[0]) ?? []), name]);
  }
  for (const [folder, names] of grouped) {
    const texts = names.sort((a, b) => byNaturalOrder(a, b)).map((name) => model.files.get(name)!);
    answers.push({ label: folder, identity: JSON.stringify(texts) });
  }
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
  replayed?: boolean | string;
  duplicate_of?: string | null;
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

/** The final event of each row of the journal's last run: the record on disk. */
function journalRows(path: string): { status: string; file: string }[] {
  const events = readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { e?: string; status?: string; answer?: string; out?: { file: string } });
  const last = events.map((event) => event.e).lastIndexOf('run');
  return events
    .slice(last + 1)
    .filter((event) => event.e === 'final' || event.e === 'unsent')
    .map((event) => ({ status: event.status!, file: event.out?.file ?? event.answer! }));
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
const PENDING = ['QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS'];

describe('re-running a changing class folder (properties, against a real sandbox)', () => {
  it(
    'charges each identity at most once, accounts for every input, and every output agrees with the record',
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
            /** Identities sent by any run so far: each may be charged once (a credit per text: each is short). */
            const sent = new Set<string>();
            /** Those of runs that finished: each must have been charged. */
            const marked = new Set<string>();
            const cost = (identities: Set<string>) => [...identities].reduce((sum, identity) => sum + JSON.parse(identity).length, 0);
            for (const [step, flags] of steps) {
              apply(model, dir, step);
              const args = ['one-pass', dir, '--model', '12', '--via', flags.via, '--jobs', String(flags.jobs), '--output', flags.format];
              args.push('--student-id-from', flags.studentIdFrom);
              if (flags.resume) args.push('--resume', journal);
              if (flags.recursive) args.push('--recursive');
              if (flags.groupByFolder) args.push('--group-by', 'folder');
              if (flags.noWait) args.push('--no-wait');
              const report = join(home, 'class.html');
              rmSync(report, { force: true });
              if (flags.report) args.push('--report', report);
              const { answers, folderRows } = expected(model, dir, flags);
              const sentBefore = new Set(sent);
              for (const answer of answers) sent.add(answer.identity);
              await settle();
              const before = await credits();
              const run = await kct(args, env, flags.interruptAfter);
              const context = `${args.join(' ')}\n--- stderr\n${run.stderr}\n--- stdout\n${run.stdout}`;
              if (run.code === 130) {
                expect(run.stderr, context).toMatch(
                  /interrupted; (no task kct knows of is left unfinished|\d+ answers? not yet seen finished may still be running|\d+ answers? accepted and not yet marked)/,
                );
                // once sending began, every answer is counted, copies too: finished, maybe still running, refused, or not sent
                if (!run.stderr.includes('(nothing was sent)')) {
                  const count = (re: RegExp) => [...run.stderr.matchAll(new RegExp(re, 'g'))].reduce((n, m) => n + Number(m[1]), 0);
                  const counted =
                    count(/interrupted; (\d+) answers? (?:not yet seen finished|accepted and not yet marked)/) +
                    count(/\((\d+) answers? seen finished/) +
                    count(/; (\d+) answers? not (?:accepted|sent)/);
                  expect(counted, context).toBe(answers.length);
                }
                await settle();
                continue;
              }
              if (answers.length === 0) {
                // nothing to send: a usage error that says why (and names empty student folders), nothing charged
                expect(run.code, context).toBe(2);
                expect(run.stderr, context).toMatch(/no answer files|nothing to mark/);
                continue;
              }
              expect(run.code, context).toBe(0);
              // every input accounted for: each answer a row, each empty folder a row (EMPTY, or NOT_ENTERED without --recursive)
              const rows = rowsOf(flags.format, run.stdout);
              expect(rows.length, context).toBe(answers.length + folderRows.size);
              const rowOf = (label: string) => rows.find((row) => row.file === label || row.file === `${join(dir, label)}/`);
              for (const answer of answers) {
                const row = rowOf(answer.label);
                expect(row, `${answer.label}\n${context}`).toBeDefined();
                // a replay is never reported as a new task: an answer marked before shows its state now
                if (flags.noWait && !marked.has(answer.identity))
                  expect([...PENDING, 'SUCCESS'], `${answer.label}\n${context}`).toContain(row?.status);
                else expect(row?.status, `${answer.label}\n${context}`).toBe('SUCCESS');
              }
              for (const [folder, status] of folderRows) expect(rowOf(folder)?.status, `${folder}/\n${context}`).toBe(status);
              // identical answers of one run: one task, every row saying so
              const byIdentity = new Map<string, Row[]>();
              for (const answer of answers)
                byIdentity.set(answer.identity, [...(byIdentity.get(answer.identity) ?? []), rowOf(answer.label)!]);
              for (const group of byIdentity.values()) {
                if (group.length < 2) continue;
                expect(new Set(group.map((row) => row.task_id)).size, context).toBe(1);
                expect(
                  group.every((row) => row.duplicate_of),
                  context,
                ).toBe(true);
              }
              if (flags.noWait) await settle();
              else {
                // the summary is the record's: its counts are the rows', its credits the balance's change
                const answerRows = rows.filter((row) => !['EMPTY', 'NOT_ENTERED', 'SKIPPED'].includes(row.status));
                const markedRows = answerRows.filter((row) => row.status === 'SUCCESS').length;
                expect(run.stderr, context).toContain(
                  `Summary: ${markedRows} of ${answerRows.length} answer${answerRows.length === 1 ? '' : 's'} marked`,
                );
                const charged = before - (await credits());
                const said = run.stderr.match(/Credits: (\d+) charged by this run/);
                expect(said ? Number(said[1]) : 0, `charged ${charged}\n${context}`).toBe(charged);
                // the rows agree: what this run charged is the credits of its rows that are not replays
                if (flags.format !== 'csv')
                  expect(
                    rows.filter((row) => row.replayed !== true).reduce((sum, row) => sum + (row.credits_charged ?? 0), 0),
                    `charged ${charged}\n${context}`,
                  ).toBe(charged);
                // every row counted once: a copy is each identity's rows but its first; an answer marked
                // before is a first row whose identity an earlier run marked (or sent: the service replays it)
                const count = (pattern: RegExp) => Number(run.stderr.match(pattern)?.[1] ?? 0);
                const copies = [...byIdentity.values()].reduce((sum, group) => sum + group.length - 1, 0);
                expect(count(/(\d+) identical answers? charged once with/), context).toBe(copies);
                const markedBefore = count(/(\d+) answers? sent before, not charged again/);
                const identities = [...byIdentity.keys()];
                expect(markedBefore, context).toBeGreaterThanOrEqual(identities.filter((identity) => marked.has(identity)).length);
                expect(markedBefore, context).toBeLessThanOrEqual(identities.filter((identity) => sentBefore.has(identity)).length);
                // the note before the run counts what the run then reuses
                expect(count(/kct: (\d+) answers? of \d+ (?:was|were) marked before/), context).toBeLessThanOrEqual(markedBefore);
                if (flags.report) {
                  const html = readFileSync(report, 'utf8');
                  expect(html.match(/<td role="cell" class="who">/g)?.length, context).toBe(rows.length);
                  expect(html, context).toContain(
                    `${markedRows} <small>of ${answerRows.length} answer${answerRows.length === 1 ? '' : 's'}</small>`,
                  );
                }
              }
              if (flags.resume) {
                // the journal is the record on disk: one final event per row, with the row's status
                const recorded = journalRows(journal);
                expect(recorded.length, context).toBe(rows.length);
                for (const row of rows)
                  expect(recorded.find((event) => event.file === row.file)?.status, `${row.file}\n${context}`).toBe(row.status);
              }
              for (const answer of answers) marked.add(answer.identity);
              // charged once: at least every identity of the finished runs, never more than every identity ever sent
              const charged = startCredits - (await credits());
              const why = `charged ${charged}; ${marked.size} identities marked (${cost(marked)} credits), ${sent.size} ever sent (${cost(sent)})\n${context}`;
              expect(charged, why).toBeGreaterThanOrEqual(cost(marked));
              expect(charged, why).toBeLessThanOrEqual(cost(sent));
            }
          },
        ),
        { numRuns: runs, seed: propertySeed(2121), endOnFailure: process.env.KCT_PROPERTY_SHRINK === '0' },
      );
    },
    Math.max(180_000, runs * 4000),
  );
});
