// Results and exit codes the QA walkthrough found wrong: a batch's result shows its items, upload
// never cuts its URLs, result and status exit 3 for a failed or cancelled task, --json covers
// commander's own parse errors, `kct help <unknown>` is an error, and `models create` prints the
// new model's id on stdout.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { kctEnv, parseJson, ROOT, runKct, tempDir, useSandbox } from './harness.js';

const shared = useSandbox({ latencyMs: 20 });
const work = tempDir('kct-results-');
const EXAMPLES = join(ROOT, 'examples');
const answer = 'Schools should not require uniforms, because students learn responsibility by choosing. For example, surveys show it.';

/** Submits a batch without waiting, watches it to the end, and returns its id. */
/** A batch sent and watched to its end; `kct status --watch` exits 3 when an item failed, as `kct result` does. */
async function finishedBatch(name: string, lines: object[], watchExit = 0): Promise<string> {
  const manifest = join(work, `${name}.jsonl`);
  writeFileSync(manifest, lines.map((line) => JSON.stringify(line)).join('\n'));
  const accepted = await shared.kct(['batch', manifest, '--model', '12', '--no-wait', '--json']);
  expect(accepted.code, accepted.stderr).toBe(0);
  const [batch] = parseJson<{ task_id: string }[]>(accepted.stdout);
  expect((await shared.kct(['status', batch.task_id, '--watch'])).code).toBe(watchExit);
  return batch.task_id;
}

describe('kct result <batch id>', () => {
  it('prints one row per item and a count line; a plain task result is unchanged', async () => {
    const id = await finishedBatch('ok', [
      { paper_content: `${answer} (first)`, student_id: 'ada' },
      { paper_content: `${answer} (second)`, student_id: 'bob' },
    ]);
    const run = await shared.kct(['result', id]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Task ${id}  SUCCESS`);
    const rows = run.stdout.split('\n').filter((line) => /│ (ada|bob) +│ SUCCESS +│ [\d.]+ \/ 20 +│/.test(line));
    expect(rows).toHaveLength(2);
    expect(rows.join('\n')).toMatch(/tsk_[0-9a-f]+/);
    expect(run.stdout).toContain('2 items: 2 succeeded');
    expect(run.stdout).not.toMatch(/Total: *\n/);

    // each item's own result is still the score table
    const item = /│ 1 +│ (tsk_[0-9a-f]+)/.exec(run.stdout)![1];
    const single = await shared.kct(['result', item]);
    expect(single.code).toBe(0);
    expect(single.stdout).toMatch(/Total: [\d.]+ \/ 20/);
    expect(single.stdout).toContain('Criterion');
  });

  it('exits 3 when an item failed, with one CSV row per item; --json keeps the record as sent', async () => {
    const id = await finishedBatch(
      'mixed',
      [
        { paper_content: `${answer} (mixed)`, student_id: 'cy' },
        { paper_content: 'KCT-SANDBOX-FAIL (mixed)', student_id: 'di' },
      ],
      3,
    );
    const table = await shared.kct(['result', id]);
    expect(table.code).toBe(3);
    expect(table.stdout).toMatch(/│ di +│ FAILURE +│/);
    expect(table.stdout).toContain('2 items: 1 succeeded, 1 failed');
    expect(table.stderr).toContain('1 of 2 items did not succeed');

    const csv = await shared.kct(['result', id, '--output', 'csv']);
    expect(csv.code).toBe(3);
    const records = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(records.map((r) => [r.student_id, r.status])).toEqual([
      ['cy', 'SUCCESS'],
      ['di', 'FAILURE'],
    ]);

    const json = await shared.kct(['result', id, '--json']);
    expect(json.code).toBe(3);
    const record = parseJson<{ task_id: string; count: number; items: { student_id: string }[] }>(json.stdout);
    expect(record).toMatchObject({ task_id: id, count: 2 });
    expect(record.items.map((i) => i.student_id)).toEqual(['cy', 'di']);
  });
});

describe('kct upload', () => {
  const fetchable = async (url: string) => (await fetch(url)).status;

  it('prints each URL whole when piped, whatever COLUMNS says', async () => {
    const run = await shared.kct(['upload', join(EXAMPLES, 'rubric.pdf'), join(EXAMPLES, 'question-paper.docx')], {
      env: { COLUMNS: '250' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('…');
    const urls = run.stdout.match(/http:\/\/\S+/g) ?? [];
    expect(urls).toHaveLength(2);
    expect(urls[0]).toMatch(/\/rubric\.pdf$/);
    expect(urls[1]).toMatch(/\/question-paper\.docx$/);
    for (const url of urls) expect(await fetchable(url)).toBe(200);
  });

  it('prints the URL whole on a terminal narrower than the table', async () => {
    const env = { ...kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user }), CI: undefined };
    // a terminal 100 columns wide (the table would need more), as the test IO fakes it
    const run = await runKct(['upload', join(EXAMPLES, 'question-paper.docx')], { env, tty: true, columns: 100 });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('…');
    expect(run.stdout).toContain('│');
    const url = /http:\/\/[^\s│]+\/question-paper\.docx/.exec(run.stdout)?.[0];
    expect(url).toBeTruthy();
    expect(await fetchable(url!)).toBe(200);
  });
});

describe('result and status exit 3 for a task that ended FAILURE or CANCEL', () => {
  it('FAILURE: 3 in every format, after printing; SUCCESS and unfinished: 0', async () => {
    const failed = parseJson<{ task_id: string }>(
      (await shared.kct(['one-pass', '--model', '12', '--text', 'KCT-SANDBOX-FAIL (exit)', '--no-wait', '--json'])).stdout,
    );
    expect((await shared.kct(['status', failed.task_id, '--watch'])).code).toBe(3);

    const table = await shared.kct(['result', failed.task_id]);
    expect(table.code).toBe(3);
    expect(table.stdout).toContain('FAILURE');
    expect(table.stdout).toContain('Reason:');
    expect(table.stderr).toContain(`task ${failed.task_id} ended FAILURE`);
    expect(table.stderr).toContain('hint: Its reason is in the record printed: fix the answer and send it again.');
    const statusRun = await shared.kct(['status', failed.task_id]);
    expect(statusRun.stderr).toContain(`hint: Its reason is in its record: kct result ${failed.task_id}.`);
    // the run that sent it says what to do too, on stderr and under --json
    const again = await shared.kct(['one-pass', '--model', '12', '--text', 'KCT-SANDBOX-FAIL (exit)']);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('hint: The reason is in the record printed. Fix that answer and run the same command again');
    const json1 = await shared.kct(['one-pass', '--model', '12', '--text', 'KCT-SANDBOX-FAIL (exit)', '--json']);
    const error = JSON.parse(json1.stderr.trim().split('\n').at(-1)!).error;
    expect(error).toMatchObject({ code: 'task_unsuccessful', exit_code: 3, suggestion: expect.stringContaining('Fix that answer') });
    for (const format of ['json', 'ndjson', 'csv']) {
      const run = await shared.kct(['result', failed.task_id, '--output', format]);
      expect(run.code, format).toBe(3);
      expect(run.stdout, format).toContain('FAILURE');
    }
    const json = await shared.kct(['result', failed.task_id, '--json']);
    expect(json.code).toBe(3);
    expect(parseJson<{ status: string }>(json.stdout).status).toBe('FAILURE');
    expect(parseJson<{ error: { exit_code: number } }>(json.stderr).error.exit_code).toBe(3);

    const status = await shared.kct(['status', failed.task_id]);
    expect(status.code).toBe(3);
    expect(status.stdout).toContain('FAILURE');
    const statusJson = await shared.kct(['status', failed.task_id, '--json']);
    expect(statusJson.code).toBe(3);
    expect(parseJson<{ status: string }>(statusJson.stdout).status).toBe('FAILURE');

    const ok = parseJson<{ task_id: string }>(
      (await shared.kct(['one-pass', '--model', '12', '--text', `${answer} (exit ok)`, '--json'])).stdout,
    );
    expect((await shared.kct(['result', ok.task_id])).code).toBe(0);
    expect((await shared.kct(['status', ok.task_id])).code).toBe(0);
  });
});

describe('result and status of a task that stays running, then is cancelled', () => {
  // each stage takes 20 s here, so the task is still running whatever the machine's load
  const stays = useSandbox({ latencyMs: 20_000 });
  it('one answer that runs out of --timeout: --json prints its row with every field of a row, as the ndjson row has', async () => {
    const run = await stays.kct(['one-pass', '--model', '12', '--text', `${answer} (single timeout)`, '--json', '--timeout', '1s']);
    expect(run.code, run.stderr).toBe(8);
    const row = parseJson<Record<string, unknown>>(run.stdout);
    expect(row).toMatchObject({ status: 'TIMEOUT', score: null, max_score: null, credits_charged: null, evaluation: null });
    expect(Object.keys(row)).toEqual(expect.arrayContaining(['file', 'student_id', 'task_id']));
    await stays.kct(['cancel', row.task_id as string]);
  });

  it('status --watch that runs out of --timeout still prints the status it ended on (exit 8), as one-pass prints a TIMEOUT row', async () => {
    const slow = parseJson<{ task_id: string }>(
      (await stays.kct(['one-pass', '--model', '12', '--text', `${answer} (watch runs out)`, '--no-wait', '--json'])).stdout,
    );
    const watch = await stays.kct(['status', slow.task_id, '--watch', '--timeout', '1s', '--json']);
    expect(watch.code, watch.stderr).toBe(8);
    expect(parseJson<{ task_id: string; status: string }>(watch.stdout)).toMatchObject({ task_id: slow.task_id });
    expect(watch.stderr).toContain('still not final after 1 s');
    await stays.kct(['cancel', slow.task_id]);
  });

  it('CANCEL: 3 from result and status; a task still running: 0 from status, 8 from result (no result yet)', async () => {
    const slow = parseJson<{ task_id: string }>(
      (await stays.kct(['one-pass', '--model', '12', '--text', `${answer} (cancel)`, '--no-wait', '--json'])).stdout,
    );
    const [running, unfinished, table] = await Promise.all([
      stays.kct(['status', slow.task_id]),
      stays.kct(['result', slow.task_id, '--json']),
      stays.kct(['result', slow.task_id]),
    ]);
    // the table says what the record is on stdout; what to do is said once, on stderr
    expect(table.code).toBe(8);
    expect(table.stdout).toContain('Not finished yet: no result to show.');
    expect(table.stdout).not.toContain('kct status');
    expect(table.stderr.split(`kct status ${slow.task_id} --watch`)).toHaveLength(2);
    expect(running.code).toBe(0);
    // the record is printed, and the exit says it is no result yet: `kct result … > result.json && …` stops
    expect(unfinished.code).toBe(8);
    expect(parseJson<{ task_id: string; status: string }>(unfinished.stdout)).toMatchObject({ task_id: slow.task_id });
    expect(unfinished.stderr).toContain('"code":"not_final"');
    expect(unfinished.stderr).toContain(`kct status ${slow.task_id} --watch`);
    expect((await stays.kct(['cancel', slow.task_id])).code).toBe(0);
    const result = await stays.kct(['result', slow.task_id, '--json']);
    expect(result.code).toBe(3);
    expect(parseJson<{ status: string }>(result.stdout).status).toBe('CANCEL');
    const status = await stays.kct(['status', slow.task_id]);
    expect(status.code).toBe(3);
    expect(status.stdout).toContain('CANCEL');
  });
});

describe("--json and commander's own parse errors", () => {
  it.each([
    [['one-pass', '--bogus', '--json'], "unknown option '--bogus'"],
    [['status', '--json'], "missing required argument 'taskId'"],
    [['--json', 'result', 'tsk_x', '--output', 'yaml'], "argument 'yaml' is invalid"],
    // an unset shell variable ($TASK) is said as such, before any request (not a 404 for /evaluations//status)
    [['status', '', '--json'], 'invalid value for <taskId>: it is empty (an unset shell variable?)'],
    [['cancel', ' ', '--json'], 'invalid value for <taskId>: it is empty'],
    [['result', '', '--json'], 'invalid value for <taskId>: it is empty'],
    // a flag's too: an unset $MODEL once marked with the profile's model, an unset $ID sent "student_id":""
    [['one-pass', 'essay.txt', '--model', '', '--json'], 'invalid value for --model: it is empty (an unset shell variable?)'],
    [['one-pass', 'essay.txt', '--model', '12', '--student-id', ' ', '--json'], 'invalid value for --student-id: it is empty'],
    [['doctor', '--mark', '', '--json'], 'invalid value for --mark: it is empty'],
  ])('kct %j: one JSON object on stderr, exit 2', async (args, message) => {
    const run = await shared.kct(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const error = parseJson<{ error: { code: string; message: string; exit_code: number; suggestion: string } }>(run.stderr).error;
    expect(error).toMatchObject({ code: 'usage', exit_code: 2 });
    expect(error.message).toContain(message);
    expect(error.suggestion).toContain('--help');
  });

  it('commander\'s "did you mean" becomes the suggestion; without --json the text form is unchanged', async () => {
    const json = await shared.kct(['one-pass', '--jsn', '--json']);
    expect(parseJson<{ error: { message: string; suggestion: string } }>(json.stderr).error).toMatchObject({
      message: "unknown option '--jsn'",
      suggestion: expect.stringContaining('Did you mean --json?'),
    });
    const text = await shared.kct(['one-pass', '--bogus']);
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/^error: unknown option '--bogus'\nhint: `kct [a-z -]+ --help` lists its options, with examples\n$/);
  });
});

describe('kct help <name>', () => {
  it("an unknown name is an unknown command (exit 2), with commander's suggestion", async () => {
    const run = await shared.kct(['help', 'nonsense']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("error: unknown command 'nonsense'");
    expect(run.stderr).not.toContain('Usage:');
    const typo = await shared.kct(['help', 'modles']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean models?');
    const json = await shared.kct(['help', 'nonsense', '--json']);
    expect(json.code).toBe(2);
    expect(parseJson<{ error: { message: string } }>(json.stderr).error.message).toBe("unknown command 'nonsense'");
  });

  it('known commands and topics still print their help, exit 0', async () => {
    const status = await shared.kct(['help', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Usage: kct status');
    const codes = await shared.kct(['help', 'exit-codes']);
    expect(codes.code).toBe(0);
    expect(codes.stdout).toContain('Exit codes');
    const top = await shared.kct(['help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('Usage: kct');
  });
});

describe('kct models create --yes', () => {
  it("prints the new model's id first on stdout; progress stays on stderr", async () => {
    const questions = join(work, 'questions.yaml');
    const rubrics = join(work, 'rubrics.yaml');
    expect((await shared.kct(['ingest', 'questions', join(EXAMPLES, 'question-paper.pdf'), '-o', questions])).code).toBe(0);
    expect(
      (await shared.kct(['ingest', 'rubrics', join(EXAMPLES, 'rubric.pdf'), '--total-score', '30', '--cum-method', 'sum', '-o', rubrics]))
        .code,
    ).toBe(0);
    const run = await shared.kct(['models', 'create', '--questions', questions, '--rubrics', rubrics, '--yes']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const id = lines[0].split(' ')[0];
    expect(id).toMatch(/^\d+$/);
    expect(lines[0]).toContain('Year 10 English: Persuasive Writing Assessment');
    expect(run.stderr).toContain(`Created model ${id}`);
    const show = await shared.kct(['models', 'show', id, '--json']);
    expect(show.code).toBe(0);
    expect(parseJson<{ model_id: number }>(show.stdout).model_id).toBe(Number(id));
  });
});
