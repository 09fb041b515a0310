// Batch progress off a terminal, messages that were once wrong, the rubric total and an unusable
// sandbox data folder: main() in-process against a real sandbox. The spinner in a real terminal
// and the signals are test/e2e/signals-and-terminals.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { essay, textFolder } from '../e2e/class-fixture.js';
import { GENERATED, kctEnv, parseJson, ROOT, runKct, tempDir, useSandbox } from './harness.js';

// --time-scale 3: KCT-SANDBOX-SLOW's stages last 500 ms, which every poll still sees
const shared = useSandbox({ args: ['--time-scale', '3'] });

describe('kct batch', () => {
  it('shows progress while it waits: one line per change off a terminal', async () => {
    const dir = textFolder(['ann', 'ben'], 'KCT-SANDBOX-SLOW');
    const run = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/kct: batch tsk_\w+ (QUEUED|PROGRESS)/);
    expect(run.stderr).toMatch(/kct: batch tsk_\w+ finished: marking 2 items: 2 marked, 0 not marked, 0 queued or running/);
  });

  it('a missing --model is reported once, not once per item', async () => {
    const dir = textFolder(['a', 'b', 'c', 'd']);
    const run = await shared.kct(['batch', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr.match(/no model/g)).toHaveLength(1);
    expect(run.stderr).toContain('none of the 4 items names one');
  });

  it('a folder with a PDF: the refusal points to one-pass, not to a --skip-unsupported batch does not have', async () => {
    const dir = textFolder(['a']);
    writeFileSync(join(dir, 'b.pdf'), readFileSync(join(GENERATED, 'essay.pdf')));
    const run = await shared.kct(['batch', dir, '--model', '12']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('kct one-pass <folder>');
    expect(run.stderr).not.toContain('--skip-unsupported');
  });

  it('a folder: a subfolder not entered is a NOT_ENTERED row, as the note says and as one-pass lists it', async () => {
    const dir = textFolder(['ann']);
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'dan.txt'), `${essay} (nested)`);
    for (const format of ['csv', 'ndjson', 'json'] as const) {
      const run = await shared.kct(['batch', dir, '--model', '12', ...(format === 'json' ? ['--json'] : ['--output', format])]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        'not entered: 1 subfolder (sub/); pass --recursive to mark the answers in it (or --exclude to leave it out); it is listed as NOT_ENTERED',
      );
      expect(run.stdout).toMatch(/sub\/?.*NOT_ENTERED|NOT_ENTERED.*sub\//s);
      if (format === 'ndjson') {
        const rows = run.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { status: string; file: string });
        expect(rows.map((row) => row.status).sort()).toEqual(['NOT_ENTERED', 'SUCCESS']);
        // every row named as an item is, relative to the folder: a run's rows are joined on their file
        expect(rows.map((row) => row.file).sort()).toEqual(['ann.txt', 'sub/']);
      }
    }
  });

  it('an answer of only spaces is refused before sending, in a manifest or a folder, as an empty one is', async () => {
    const dir = tempDir('kct-batch-blank-');
    const manifest = join(dir, 'blank.jsonl');
    writeFileSync(manifest, `${JSON.stringify({ student_id: 'e1', paper_content: '   ' })}\n`);
    const listed = await shared.kct(['batch', manifest, '--model', '12']);
    expect(listed.code).toBe(2);
    expect(listed.stderr).toContain(
      '1 manifest item cannot be sent:\n  blank.jsonl line 1: paper_content holds only spaces and line breaks: no answer to mark',
    );
    const folder = textFolder(['ok']);
    writeFileSync(join(folder, 'ws.txt'), '  \n\n ');
    const files = await shared.kct(['batch', folder, '--model', '12']);
    expect(files.code).toBe(2);
    expect(files.stderr).toContain('1 answer cannot be sent:');
    expect(files.stderr).toContain('ws.txt holds only spaces and line breaks: no answer to mark');
    expect(files.stderr).toContain('hint: Fix or --exclude those files; nothing was sent.');
    expect(files.stderr).not.toContain('manifest');
  });

  it('items that share a student id are said before sending, as one-pass says of files', async () => {
    const manifest = join(tempDir('kct-batch-ids-'), 'class.jsonl');
    const items = [
      { student_id: 'm3', paper_content: 'Uniforms should be optional because comfort matters to learning.' },
      { student_id: 'm3', paper_content: 'Uniforms should be compulsory because they build a school identity.' },
      { student_id: 'm4', paper_content: 'Uniforms save families money over a year of school.' },
    ];
    writeFileSync(manifest, `${items.map((item) => JSON.stringify(item)).join('\n')}\n`);
    const run = await shared.kct(['batch', manifest, '--model', '12', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/several answers share a student id \("m3" 2 times\); give each item its own student_id/);
    // under --json a note notice, its message without the prefix (docs/guides/exit-codes.md)
    const json = await shared.kct(['batch', manifest, '--model', '12', '--json']);
    const notices = json.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { notice?: { code: string; message: string } });
    expect(notices.find((line) => line.notice?.message.startsWith('several answers share'))?.notice?.code).toBe('note');
  });

  it('an item that failed: the same command sends it again as a new task and reuses the mark of the other; the error says so', async () => {
    const dir = tempDir('kct-batch-again-');
    const fail = { student_id: 'f1', paper_content: `Uniforms should be optional. KCT-SANDBOX-FAIL ${dir}` };
    const good = { student_id: 'g1', paper_content: `Uniforms build a sense of belonging in a school. ${dir}` };
    writeFileSync(join(dir, 'class.jsonl'), `${JSON.stringify(fail)}\n${JSON.stringify(good)}\n`);
    const rowsOf = (stdout: string) =>
      new Map(
        stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { student_id: string; task_id: string; replayed?: boolean })
          .map((row) => [row.student_id, row]),
      );
    const first = await shared.kct(['batch', join(dir, 'class.jsonl'), '--model', '12', '--output', 'ndjson']);
    expect(first.code).toBe(3);
    expect(first.stderr).toContain('Fix that answer and run the same command again: a failed answer is sent again as a new task');
    const again = await shared.kct(['batch', join(dir, 'class.jsonl'), '--model', '12', '--output', 'ndjson']);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('1 item of 2 ended FAILURE or CANCEL when sent before: sent again in a new request');
    expect(again.stderr).toContain('batch 1/1 accepted as tsk_');
    // the failed item a new task, the other's mark reused
    expect(rowsOf(again.stdout).get('f1')?.task_id).not.toBe(rowsOf(first.stdout).get('f1')?.task_id);
    expect(rowsOf(again.stdout).get('g1')).toMatchObject({ task_id: rowsOf(first.stdout).get('g1')?.task_id, replayed: true });
    // and again: each run sends it anew (a request keyed by the task it failed in), never the failure replayed
    const third = await shared.kct(['batch', join(dir, 'class.jsonl'), '--model', '12', '--output', 'ndjson']);
    expect(third.stderr).toContain('batch 1/1 accepted as tsk_');
    expect(third.stderr).not.toContain('already submitted');
    expect(rowsOf(third.stdout).get('f1')?.task_id).not.toBe(rowsOf(again.stdout).get('f1')?.task_id);
  });

  it('--no-wait with several batch requests names each batch to follow, not only the first', async () => {
    const manifest = join(tempDir('kct-batch-several-'), 'district.jsonl');
    const items = Array.from({ length: 101 }, (_, i) =>
      JSON.stringify({ student_id: `s${i}`, paper_content: `Uniforms answer ${i} ${manifest}.` }),
    );
    writeFileSync(manifest, `${items.join('\n')}\n`);
    const run = await shared.kct(['batch', manifest, '--model', '12', '--no-wait', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    const ids = run.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { task_id: string }).task_id);
    expect(ids).toHaveLength(2);
    expect(run.stderr).toContain(`Follow each with: kct status <task_id> (${ids.join(', ')}) --watch`);
  });

  it('a CSV manifest with a word where a number goes names the cell as written (was "expected number, received NaN")', async () => {
    const manifest = join(tempDir('kct-batch-csv-'), 'class.csv');
    writeFileSync(manifest, 'student_id,model_id,paper_content\na1,twelve,Uniforms are fair.\n');
    const run = await shared.kct(['batch', manifest]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('model_id must be a number, not "twelve"');
    expect(run.stderr).not.toContain('NaN');
  });

  it('cancelling a batch says items are charged as each succeeds, not at acceptance', async () => {
    const dir = tempDir('kct-batch-cancel-');
    // one fast item, then slow ones enough to keep the batch running on a loaded machine
    writeFileSync(
      join(dir, 'items.jsonl'),
      [
        JSON.stringify({ paper_content: `${essay} fast ${dir}`, student_id: 'fast' }),
        ...Array.from({ length: 16 }, (_, i) =>
          JSON.stringify({ paper_content: `${essay} slow ${i} ${dir} KCT-SANDBOX-SLOW`, student_id: `slow${i}` }),
        ),
      ].join('\n'),
    );
    const batch = parseJson<{ task_id: string }[]>(
      (await shared.kct(['batch', join(dir, 'items.jsonl'), '--model', '12', '--no-wait', '--json'])).stdout,
    )[0];
    // wait until an item is marked (and charged), the slow ones still running or queued
    for (let i = 0; i < 200; i++) {
      const record = parseJson<{ items: { status: string }[] }>((await shared.kct(['result', batch.task_id, '--json'])).stdout);
      if (record.items.some((item) => item.status === 'SUCCESS')) break;
    }
    const cancel = await shared.kct(['cancel', batch.task_id]);
    expect(cancel.code, cancel.stderr).toBe(0);
    // what the cancel says stays charged is what the batch's record says was charged
    const charged = parseJson<{ credits_charged: number }>((await shared.kct(['result', batch.task_id, '--json'])).stdout).credits_charged;
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThan(17);
    expect(cancel.stdout).toContain(
      `${charged} credit${charged === 1 ? '' : 's'} for the items marked before the cancel ${charged === 1 ? 'stays' : 'stay'} charged, the others are never charged`,
    );
    expect(cancel.stdout).not.toContain('at acceptance');
  });
});

describe('retry notices', () => {
  it('with --json, retry notices on stderr are JSON lines', async () => {
    const run = await shared.kct([
      'one-pass',
      '--model',
      '12',
      '--text',
      `${essay} (json retry)`,
      '--student-id',
      'kct-429-once',
      '--idempotency-key',
      `json-retry-${Date.now()}`,
      '--json',
    ]);
    expect(run.code).toBe(0);
    const retries = run.stderr.split('\n').filter((line) => /retry/i.test(line));
    expect(retries.length).toBeGreaterThan(0);
    for (const line of retries)
      expect(parseJson<{ notice: { code: string; attempt: number } }>(line).notice).toMatchObject({ code: 'retry', attempt: 1 });
  });
});

describe('messages that were wrong', () => {
  it('11 pages to kct evaluate: one answer, at most 10 files per answer', async () => {
    const dir = tempDir();
    const pages = Array.from({ length: 11 }, (_, i) => {
      const path = join(dir, `p${i + 1}.txt`);
      writeFileSync(path, `page ${i + 1}`);
      return path;
    });
    const run = await shared.kct(['evaluate', '--assignment', '1001', ...pages]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('11 files in one answer; the limit is 10 files per answer');
    expect(run.stderr).not.toContain('several requests');
  });

  it('a model id used as an assignment id: the hint names kct commands', async () => {
    const run = await shared.kct(['evaluate', '--assignment', '12', '--text', `${essay} (mix-up)`]);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain('hint: 12 is a model id. kct evaluate needs an assignment id: create one with `kct assign --model 12');
    expect(run.stderr).toContain('`kct one-pass <file> --model 12`');
  });

  it('KCT_MODEL=abc names the variable', async () => {
    const run = await shared.kct(['one-pass', '--text', 'An answer.'], { env: { KCT_MODEL: 'abc' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('model id from KCT_MODEL must be a positive whole number, not "abc"');
    expect(run.stderr).toContain('Fix or unset KCT_MODEL');
  });
});

describe('--rubric-file and --total-score', () => {
  it('warns when the service finds no criteria in the rubric, with --total-score or without, and marks all the same', async () => {
    const prose = join(tempDir('kct-prose-rubric-'), 'nocrit.txt');
    writeFileSync(prose, 'This rubric is just some prose with no criteria or marks at all.\n');
    for (const extra of [[], ['--total-score', '10', '--cum-method', 'sum']]) {
      const run = await shared.kct([
        'one-pass',
        '--model',
        '12',
        '--text',
        `${essay} (prose rubric)`,
        '--rubric-file',
        prose,
        ...extra,
        '--no-wait',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`warning: the service finds no criteria in ${prose} (it says: No criteria were found`);
      expect(run.stderr).toContain(`Check the rubric with kct ingest rubrics ${prose} before marking with it.`);
      expect(run.stderr).not.toContain('--total-score 10:');
    }
    // the same run again sends nothing (the answer was marked): the rubric is not uploaded to be checked
    const again = await shared.kct(['one-pass', '--model', '12', '--text', `${essay} (prose rubric)`, '--rubric-file', prose, '--no-wait']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('finds no criteria');
    const text = await shared.kct([
      'one-pass',
      '--model',
      '12',
      '--text',
      `${essay} (prose rubric text)`,
      '--rubric-text',
      'Just prose.',
      '--no-wait',
    ]);
    expect(text.stderr).toContain('warning: the service finds no criteria in --rubric-text');
    // a rubric with criteria: no warning without --total-score
    const fine = await shared.kct([
      'one-pass',
      '--model',
      '12',
      '--text',
      `${essay} (rubric file)`,
      '--rubric-file',
      join(ROOT, 'examples', 'rubric.txt'),
      '--no-wait',
    ]);
    expect(fine.code, fine.stderr).toBe(0);
    expect(fine.stderr).not.toContain('warning');
  });

  it("warns when the rubric's criteria add up to more than --total-score, and the README's example is consistent", async () => {
    const rubric = join(ROOT, 'examples', 'rubric.txt');
    const wrong = await shared.kct([
      'one-pass',
      '--model',
      '12',
      '--text',
      `${essay} (rubric 20)`,
      '--rubric-file',
      rubric,
      '--cum-method',
      'sum',
      '--total-score',
      '20',
      '--no-wait',
    ]);
    expect(wrong.code).toBe(0);
    expect(wrong.stderr).toContain('warning: --total-score 20: the criterion maxima add up to 30, 10 more than total_score 20');
    // the one-pass example of docs/guides/marking-one-answer.md, run as written (with a real answer file for essay.pdf)
    const readme = readFileSync(join(ROOT, 'docs', 'guides', 'marking-one-answer.md'), 'utf8');
    const example = /```sh\n(kct one-pass essay\.pdf --model 12 \\\n[\s\S]*?)\n```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const args = example!
      .replace(/\\\n\s*/g, ' ')
      .match(/"[^"]*"|\S+/g)!
      .slice(1)
      .map((arg) => arg.replace(/^"|"$/g, ''))
      .map((arg) =>
        arg === 'essay.pdf' ? join(GENERATED, 'essay.pdf') : arg === 'rubric.docx' ? join(ROOT, 'examples', 'rubric.docx') : arg,
      )
      .map((arg) => (arg.startsWith('essay-') ? `${arg}-${Date.now()}` : arg));
    const run = await shared.kct([...args, '--no-wait']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('warning');
  });
});
describe('kct sandbox start-up', () => {
  it('--data a folder it cannot create fails at once with exit 2', async () => {
    const run = await runKct(['sandbox', '--port', '0', '--data', '/proc/nope'], { env: kctEnv(tempDir()), timeoutMs: 20_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot use /proc/nope as the sandbox data folder: it cannot be created');
  });
});
