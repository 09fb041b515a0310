// An interrupted `kct one-pass <folder> --no-wait` said "5 answers not yet seen finished may still
// be running" and named no task: a pipeline could not tell the answers the service had accepted
// (and will charge) from those never sent. Every accepted answer's row is printed as it is accepted,
// in every format, and the error counts and names them (--json: `accepted`, `unfinished`,
// `task_ids`, `not_sent`): each answer is in the rows printed or counted not sent, never both,
// never neither. The same holds of --via batch and of kct batch --no-wait.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { ndjsonRows, tempDir, useSandbox } from './harness.js';

// each request takes its time, so a Ctrl-C lands between answers
const shared = useSandbox({ latencyMs: 40 });
const PENDING = ['QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS'];

type Format = 'json' | 'ndjson' | 'csv' | 'table';

interface Row {
  file: string;
  task_id: string;
  status: string;
}

interface StoppedError {
  code: string;
  message: string;
  exit_code: number;
  accepted: number;
  unfinished: number;
  task_ids: string[];
  not_sent: number;
}

let folders = 0;
function folder(count: number): { dir: string; files: string[] } {
  const dir = join(tempDir('kct-stopped-no-wait-'), 'class');
  mkdirSync(dir);
  const tag = `${folders++} ${dir}`;
  const files = Array.from({ length: count }, (_, i) => {
    const file = join(dir, `pupil-${String(i + 1).padStart(3, '0')}.txt`);
    writeFileSync(file, `Uniforms should be compulsory, says pupil ${i + 1} (${tag}): they cost less in the end.\n`);
    return file;
  });
  return { dir, files };
}

/** The rows a format printed: the table's by its lines that name a task. */
function rowsOf(format: Format, stdout: string, dir: string): Row[] {
  if (format === 'json') return JSON.parse(stdout) as Row[];
  if (format === 'ndjson') return ndjsonRows<Row>(stdout);
  if (format === 'csv') return parse(stdout, { columns: true }) as Row[];
  return [...stdout.matchAll(/│ (\S+) +│[^│]*│ (tsk_\w+) +│ (\w+) +│/g)].map(([, file, task_id, status]) => ({
    file: join(dir, file),
    task_id,
    status,
  }));
}

/** What the error says, from --json's object or from the sentence people read. */
function stoppedOf(format: Format, stderr: string): Pick<StoppedError, 'unfinished' | 'task_ids' | 'not_sent'> & { accepted?: number } {
  const lines = stderr.trim().split('\n');
  if (format === 'json') return (JSON.parse(lines.at(-1)!) as { error: StoppedError }).error;
  const line = lines.find((text) => text.startsWith('error: interrupted'))!;
  return {
    unfinished: Number(/interrupted; (\d+) answers? accepted and not yet marked/.exec(line)?.[1] ?? 0),
    task_ids: /: tasks? ([^;(]+)/.exec(line)?.[1].replace(', …', '').split(', ') ?? [],
    not_sent: Number(/; (\d+) answers? not sent/.exec(line)?.[1] ?? 0),
  };
}

describe('kct one-pass --no-wait stopped by Ctrl-C', () => {
  it('property: over the moment it stops, each answer is a row printed with its task or counted not sent, never both, never neither', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 8 }),
        // stop this long after the first task is accepted (a table prints its rows only at the end, so no row can say when)
        fc.integer({ min: 0, max: 6 }).map((n) => n * 20),
        fc.constantFrom<Format>('json', 'ndjson', 'csv', 'table'),
        fc.integer({ min: 1, max: 3 }),
        async (count, delayMs, format, jobs) => {
          const { dir, files } = folder(count);
          const ctrlC = new AbortController();
          const output = format === 'json' ? ['--json'] : ['--output', format];
          let timer: NodeJS.Timeout | undefined;
          const run = await shared.kct(['one-pass', dir, '--model', '12', '--no-wait', '--jobs', String(jobs), ...output], {
            signal: ctrlC.signal,
            onStderr: (_, all) => {
              if (timer === undefined && all.includes('quoted')) timer = setTimeout(() => ctrlC.abort(), delayMs);
            },
          });
          clearTimeout(timer);
          const context = `${format} --jobs ${jobs}, stopped ${delayMs} ms after the first of ${count} was accepted\n${run.stderr}\n${run.stdout}`;
          // stopped late, the run had finished: every answer a row
          expect([0, 130], context).toContain(run.code);
          const rows = rowsOf(format, run.stdout, dir);
          const stopped =
            run.code === 0 ? { accepted: count, unfinished: count, task_ids: [], not_sent: 0 } : stoppedOf(format, run.stderr);
          // never both, never neither: rows and answers not sent add up to the class, each row an answer once
          expect(rows.length + stopped.not_sent, context).toBe(count);
          expect(new Set(rows.map((row) => row.file)).size, context).toBe(rows.length);
          for (const row of rows) {
            expect(files, context).toContain(row.file);
            expect(row.task_id, context).toMatch(/^tsk_/);
            expect(PENDING, context).toContain(row.status);
          }
          // every answer accepted is a row printed, and the error names its task (the sentence, the first five)
          expect(stopped.unfinished, context).toBe(rows.length);
          const printed = rows.map((row) => row.task_id);
          if (run.code === 0) expect(rows.length, context).toBe(count);
          else if (format === 'json') {
            expect(stopped.accepted, context).toBe(rows.length);
            expect([...stopped.task_ids].sort(), context).toEqual([...printed].sort());
          } else {
            expect(stopped.task_ids.length, context).toBe(Math.min(5, rows.length));
            for (const id of stopped.task_ids) expect(printed, context).toContain(id);
          }
        },
      ),
      {
        numRuns: propertyRuns(8),
        seed: propertySeed(6021),
        examples: [
          [5, 0, 'json', 1],
          [4, 40, 'csv', 2],
          [6, 20, 'table', 1],
        ],
      },
    );
  }, 240_000);

  it('--via batch: the batch accepted is every row printed, its one task named; the answers of the batch not sent are counted', async () => {
    const { dir } = folder(101);
    const ctrlC = new AbortController();
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--no-wait', '--via', 'batch', '--json'], {
      signal: ctrlC.signal,
      onStderr: (_, all) => {
        if (all.includes('quoted')) ctrlC.abort();
      },
    });
    expect(run.code, run.stderr).toBe(130);
    const rows = JSON.parse(run.stdout) as Row[];
    const error = (JSON.parse(run.stderr.trim().split('\n').at(-1)!) as { error: StoppedError }).error;
    expect(rows).toHaveLength(100);
    const [task] = new Set(rows.map((row) => row.task_id));
    expect(error).toMatchObject({ code: 'interrupted', accepted: 100, unfinished: 100, task_ids: [task], not_sent: 1 });
    expect(error.message).toBe(
      `interrupted; 100 answers accepted and not yet marked (their rows printed): task ${task}; 1 answer not sent`,
    );
  });
});

describe('kct batch --no-wait stopped by Ctrl-C', () => {
  it('the batch accepted is printed (csv stays csv), counted and named; sent again and stopped, the replay is printed too, never its stored state as now', async () => {
    const { dir } = folder(150);
    const stop = (seen: string) => {
      const ctrlC = new AbortController();
      return { signal: ctrlC.signal, onStderr: (_: string, all: string) => all.includes(seen) && ctrlC.abort() };
    };
    const json = await shared.kct(['batch', dir, '--model', '12', '--no-wait', '--json'], stop('batch 1/2 accepted'));
    expect(json.code, json.stderr).toBe(130);
    const [task] = JSON.parse(json.stdout) as { task_id: string; status: string }[];
    const error = (JSON.parse(json.stderr.trim().split('\n').at(-1)!) as { error: StoppedError }).error;
    expect(error).toMatchObject({ accepted: 100, unfinished: 100, task_ids: [task.task_id], not_sent: 50 });
    // the same request again (--mark-again sends every item, not reusing their marks) is replayed: its state
    // now is read, unless the Ctrl-C stopped that read
    const csv = await shared.kct(
      ['batch', dir, '--model', '12', '--no-wait', '--mark-again', '--output', 'csv'],
      stop('batch 1/2 already submitted'),
    );
    expect(csv.code, csv.stderr).toBe(130);
    const [row, ...more] = parse(csv.stdout, { columns: true }) as { task_id: string; status: string }[];
    expect(more).toEqual([]);
    expect(row.task_id).toBe(task.task_id);
    expect(['', 'SUCCESS', ...PENDING]).toContain(row.status);
    // a replay read as finished is not left running: its items are counted seen finished
    expect(csv.stderr).toContain(
      row.status === 'SUCCESS'
        ? 'interrupted; no batch kct knows of is left unfinished (100 items seen finished, their tasks printed)'
        : 'interrupted; 100 items in a batch not seen finished',
    );
    expect(csv.stderr).toContain(task.task_id);
  });
});

describe('kct batch of a grown manifest stopped by Ctrl-C while sending', () => {
  // the marks reused from an earlier run's finished batch were counted as items "in a batch not seen finished", their rows never printed
  it.each([
    ['waits', []],
    ['--no-wait', ['--no-wait']],
  ])(
    '%s: the items reused are finished (their rows, or their task, printed), the batch accepted running, the rest not sent',
    async (_, wait) => {
      const { dir } = folder(20);
      const earlier = await shared.kct(['batch', dir, '--model', '12', '--json']);
      expect(earlier.code, earlier.stderr).toBe(0);
      // grown by 110: two requests to send, the Ctrl-C lands after the first is accepted
      for (let i = 0; i < 110; i++)
        writeFileSync(join(dir, `late-${String(i).padStart(3, '0')}.txt`), `A late pupil ${i} (${dir}) says uniforms help.\n`);
      const ctrlC = new AbortController();
      const run = await shared.kct(['batch', dir, '--model', '12', '--json', ...wait], {
        signal: ctrlC.signal,
        onStderr: (_, all) => all.includes('batch 1/2 accepted') && ctrlC.abort(),
      });
      expect(run.code, run.stderr).toBe(130);
      const error = (JSON.parse(run.stderr.trim().split('\n').at(-1)!) as { error: StoppedError }).error;
      expect(error).toMatchObject({ accepted: 120, unfinished: 100, not_sent: 10 });
      expect(error.message).toContain('interrupted; 100 items in a batch not seen finished');
      expect(error.message).toContain(`(20 items seen finished, their ${wait.length === 0 ? 'rows' : 'tasks'} printed)`);
      const printed = JSON.parse(run.stdout) as { status: string; task_id: string }[];
      if (wait.length === 0) {
        // a waiting run prints every finished item's row: the 20 reused
        expect(printed.map((row) => row.status)).toEqual(Array(20).fill('SUCCESS'));
      } else {
        // --no-wait lists the tasks: the earlier (final) one and the batch accepted
        expect(printed).toHaveLength(2);
        expect(error.task_ids).toHaveLength(1);
        expect(printed.map((task) => task.task_id)).toContain(error.task_ids[0]);
      }
    },
  );
});
