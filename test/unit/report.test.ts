// The class report's pure parts: the streaming tally behind every summary, escaping, bands, the
// rows' HTML, reading a saved run, and the writer's file handling (never half a page).

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { renderSummary, summarize } from '../../src/cli/render/summary.js';
import { bandCount, ClassTally } from '../../src/cli/render/tally.js';
import { distributionChart } from '../../src/cli/report/charts.js';
import { CONTENT_SECURITY_POLICY, failureItem, type ReportRow, studentRow } from '../../src/cli/report/html.js';
import { readSavedRun } from '../../src/cli/report/saved-run.js';
import { escapeHtml } from '../../src/cli/report/text.js';
import { ReportWriter } from '../../src/cli/report/writer.js';

const criterion = (item: string, score: number, max: number) => ({ item, score, max_score: max, feedback: `${item} feedback` });
const marked = (score: number, file = `s${score}.txt`): ReportRow => ({
  file,
  student_id: file.replace(/\.txt$/, ''),
  task_id: `tsk_${score}`,
  status: 'SUCCESS',
  score,
  max_score: 20,
  evaluation: [criterion('Thesis', score / 2, 10), criterion('Evidence', score / 4, 5)],
});

function tempDir(): string {
  const dir = join(tmpdir(), `kct-report-unit-${process.pid}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  return dir;
}

describe('the streaming tally', () => {
  it('totals on different scales (answers marked on different rubrics) are not averaged together, in the summary or the report', () => {
    const summary = summarize([
      { status: 'SUCCESS', score: 14, maxScore: 20, evaluation: marked(14).evaluation },
      { status: 'SUCCESS', score: 0, maxScore: 10, evaluation: [criterion('Context', 0, 10)] },
    ]);
    expect(summary).toMatchObject({ marked: 2, scales: [20, 10], histogram: [] });
    expect(summary.mean).toBeUndefined();
    expect(summary.criteria.map((c) => c.item)).toEqual(['Thesis', 'Evidence', 'Context']);
    const text = renderSummary(summary, { unicode: false }).join('\n');
    expect(text).toContain('Totals: out of 20 and 10: the answers were marked on different rubrics');
    expect(text).not.toContain('mean 7');
    expect(text).toContain('Criteria (mean / max):');
    expect(distributionChart(summary)).toContain('out of 20 and 10');
  });

  it('gives the figures of the summary: counts, mean, median, range, bands, criteria and the weakest', () => {
    const outcomes = [4, 7, 7, 12.5, 20].map((score) => ({ status: 'SUCCESS', score, maxScore: 20, evaluation: marked(score).evaluation }));
    outcomes.push({
      status: 'FAILURE',
      score: null,
      maxScore: null,
      evaluation: [{ type: 'error', item: 'error', comment: 'no' }],
    } as never);
    outcomes.push({ status: 'CANCEL' } as never);
    outcomes.push({ status: 'NOT_SENT' } as never);
    const summary = summarize(outcomes);
    expect(summary).toMatchObject({
      total: 8,
      marked: 5,
      failed: 1,
      cancelled: 1,
      other: 1,
      mean: 10.1,
      median: 7,
      min: 4,
      max: 20,
      maxScore: 20,
    });
    // ten bands out of 20, as the report draws them (bandCount): 4 | 7, 7 | 12.5 | 20
    expect(summary.histogram.map(({ from, to, count }) => `${from}–${to}: ${count}`)).toEqual([
      '0–2: 0',
      '2–4: 0',
      '4–6: 1',
      '6–8: 2',
      '8–10: 0',
      '10–12: 0',
      '12–14: 1',
      '14–16: 0',
      '16–18: 0',
      '18–20: 1', // the maximum falls in the last band
    ]);
    expect(summary.criteria).toEqual([
      { item: 'Thesis', mean: 5.05, max: 10, ratio: 0.505 },
      { item: 'Evidence', mean: 2.53, max: 5, ratio: 0.506 },
    ]);
    expect(summary.weakest).toBe('Thesis');
  });

  it('no criterion is the weakest when none is below another (a class that scored 0 on every criterion)', () => {
    const zero = {
      status: 'SUCCESS',
      score: 0,
      maxScore: 20,
      evaluation: [
        { item: 'Thesis', score: 0, max_score: 10 },
        { item: 'Evidence', score: 0, max_score: 10 },
      ],
    };
    expect(summarize([zero, zero]).weakest).toBeUndefined();
    const uneven = { ...zero, evaluation: [zero.evaluation[0], { item: 'Evidence', score: 5, max_score: 10 }] };
    expect(summarize([uneven]).weakest).toBe('Thesis');
  });

  it('credits charged by the run: 0 when it marked nothing of its own (all reused), unknown only when the service did not say', () => {
    const reused = new ClassTally();
    reused.add({ status: 'SUCCESS', score: 10, replayed: true, creditsCharged: 1 });
    reused.add({ status: 'SKIPPED' });
    expect(reused.summary().creditsCharged).toBe(0);
    const unsaid = new ClassTally();
    unsaid.add({ status: 'SUCCESS', score: 10 });
    expect(unsaid.summary().creditsCharged).toBeUndefined();
    const said = new ClassTally();
    said.add({ status: 'SUCCESS', score: 10, creditsCharged: 2 });
    expect(said.summary().creditsCharged).toBe(2);
  });

  it('totals so small that their bands would underflow to width 0 still land in a band (found by saved-run-shapes)', () => {
    const tally = new ClassTally();
    for (const score of [5e-324, 0]) tally.add({ status: 'SUCCESS', score });
    expect(tally.summary().histogram.reduce((sum, band) => sum + band.count, 0)).toBe(2);
  });

  it('an even count takes the middle two for the median; a band per mark up to a maximum of 10', () => {
    const tally = new ClassTally();
    for (const score of [1, 2, 3, 10]) tally.add({ status: 'SUCCESS', score, maxScore: 10 });
    const summary = tally.summary();
    expect(summary.median).toBe(2.5);
    expect(summary.histogram).toHaveLength(10);
    expect(summary.histogram.map((band) => band.count)).toEqual([0, 1, 1, 1, 0, 0, 0, 0, 0, 1]);
  });

  it('keeps one count per distinct total, not one entry per answer', () => {
    const tally = new ClassTally();
    for (let i = 0; i < 50_000; i++) tally.add({ status: 'SUCCESS', score: i % 21, maxScore: 20 });
    expect((tally as unknown as { totals: Map<number, number> }).totals.size).toBe(21);
    expect(tally.summary().median).toBe(10);
  });
});

describe('HTML of the report', () => {
  it('escapes the five special characters and drops control characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>\u001b[31m\u0007`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('a row with hostile text holds it only as text', () => {
    const hostile = '<script>alert(1)</script>';
    const row = studentRow({
      ...marked(12),
      student_id: hostile,
      evaluation: [{ item: hostile, score: 1, max_score: 2, feedback: `${hostile}\nline two` }],
    });
    expect(row).not.toContain('<script>');
    expect(row).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(row).toContain('data-v="12"');
    expect(row).toContain('<meter min="0" max="20" value="12"></meter>');
    const failure = failureItem({ file: 'a/b.txt', status: 'FAILURE" onmouseover="x', message: hostile });
    expect(failure).not.toMatch(/<[^>]*\sonmouseover=/);
    expect(failure).toContain('&lt;script&gt;');
  });

  it('an unmarked row has an empty sort value (sorted last) and its reason behind the click', () => {
    const row = studentRow({
      file: 'ben.txt',
      status: 'FAILURE',
      evaluation: [{ type: 'error', item: 'error', comment: 'The file could not be read.' }],
    });
    expect(row).toContain('data-v=""');
    expect(row).toContain('<summary>Reason</summary>');
    expect(row).toContain('The file could not be read.');
    expect(row).toContain('<td role="cell" class="who">ben.txt</td>');
  });

  it('a task still under way when the run was saved (--no-wait) has not ended: the reason says so, and how to get its mark', () => {
    for (const status of ['QUEUED', 'PROGRESS']) {
      const item = failureItem({ file: 'ana.txt', task_id: 'tsk_1', status });
      expect(item).not.toContain('ended');
      expect(item).toContain('not finished when this run was saved: the same command again, without --no-wait, prints its mark');
    }
    expect(failureItem({ file: 'ana.txt', task_id: 'tsk_1', status: 'CANCEL' })).toContain('ended CANCEL');
  });

  it('one bar per mark up to ten marks, else ten bands', () => {
    expect(bandCount(4)).toBe(4);
    expect(bandCount(10)).toBe(10);
    expect(bandCount(20)).toBe(10);
    expect(bandCount(100)).toBe(10);
    expect(bandCount(7.5)).toBe(10);
    expect(bandCount(undefined)).toBe(10);
  });

  it("the policy allows exactly the page's own style and script, by hash", async () => {
    const dir = tempDir();
    const target = join(dir, 'r.html');
    const writer = ReportWriter.open({ target });
    writer.add(marked(10));
    await writer.finish();
    const html = readFileSync(target, 'utf8');
    const hash = (tag: string) =>
      `'sha256-${createHash('sha256')
        .update(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(html)![1])
        .digest('base64')}'`;
    expect(CONTENT_SECURITY_POLICY).toContain(`style-src ${hash('style')}`);
    expect(CONTENT_SECURITY_POLICY).toContain(`script-src ${hash('script')}`);
    expect(CONTENT_SECURITY_POLICY.startsWith("default-src 'none';")).toBe(true);
  });
});

describe('who marked the answers', () => {
  it('is said under the title when the results name it (the sandbox does), and not otherwise', async () => {
    const dir = tempDir();
    const sandbox = ReportWriter.open({ target: join(dir, 'sandbox.html') });
    sandbox.add({ ...marked(10), result: { graded_by: "the sandbox's offline grader" } });
    sandbox.add(marked(12));
    await sandbox.finish();
    expect(readFileSync(join(dir, 'sandbox.html'), 'utf8')).toContain(
      '<p class="marked-by">Marked by the sandbox&#39;s offline grader</p>',
    );
    const service = ReportWriter.open({ target: join(dir, 'service.html') });
    service.add(marked(10));
    await service.finish();
    expect(readFileSync(join(dir, 'service.html'), 'utf8')).not.toContain('<p class="marked-by">');
  });
});

describe('reading a saved run', () => {
  const read = async (text: string) => {
    const rows: ReportRow[] = [];
    for await (const row of readSavedRun('-', Readable.from([text]))) rows.push(row);
    return rows;
  };

  it('reads one answer a line, skipping blank lines and keeping unknown fields', async () => {
    const rows = await read(
      `${JSON.stringify(marked(3))}\n\n${JSON.stringify({ file: 'x.txt', status: 'ERROR', message: 'HTTP 402', extra: 1 })}\r\n`,
    );
    expect(rows.map((row) => row.status)).toEqual(['SUCCESS', 'ERROR']);
    expect(rows[1].message).toBe('HTTP 402');
  });

  it('names the line that is not an answer', async () => {
    await expect(read(`${JSON.stringify(marked(3))}\n{"file":"a","score":"7","status":"SUCCESS"}\n`)).rejects.toThrow(
      /stdin line 2 is not an answer of a run: score/,
    );
    await expect(read('{"status": 1}')).rejects.toThrow(UsageError);
  });
});

describe('the report file', () => {
  it('appears whole, or not at all', async () => {
    const dir = tempDir();
    const target = join(dir, 'class.html');
    writeFileSync(target, 'an older report');
    const writer = ReportWriter.open({ target, title: 'Year 9 <b>' });
    writer.add(marked(8));
    writer.add({ file: 'ben.txt', status: 'FAILURE', message: 'no' });
    expect(readFileSync(target, 'utf8')).toBe('an older report'); // untouched until finish
    expect(await writer.finish()).toEqual({ file: target, answers: 2, marked: 1, not_marked: 1, not_sent: 0 });
    const html = readFileSync(target, 'utf8');
    expect(html).toContain('<title>Year 9 &lt;b&gt;</title>');
    expect(html.match(/<tr role="row"( data-unmarked="")?><td role="cell" class="who">/g)).toHaveLength(2);
    expect(readdirSync(dir)).toEqual(['class.html']);

    const exitListeners = process.listenerCount('exit');
    const abandoned = ReportWriter.open({ target: join(dir, 'other.html') });
    expect(process.listenerCount('exit')).toBe(exitListeners + 1); // cleans up even on process.exit
    abandoned.add(marked(8));
    abandoned.discard();
    abandoned.discard();
    expect(process.listenerCount('exit')).toBe(exitListeners);
    expect(readdirSync(dir)).toEqual(['class.html']);
  });

  it('a folder, or a file in a folder that does not exist, is refused when opened', () => {
    const dir = tempDir();
    expect(() => ReportWriter.open({ target: dir })).toThrow(/is a folder/);
    expect(() => ReportWriter.open({ target: join(dir, 'missing', 'r.html') })).toThrow(/its folder does not exist/);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });
});
