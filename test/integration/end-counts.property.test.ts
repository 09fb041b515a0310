// One run, one count: over generated class folders with mistakes in them (answers that fail, empty
// files, files kct cannot send, a subfolder not entered, copies), the counts of the text summary,
// the --json end notice and `kct report --json` of the saved rows are the same, and are the rows'.
// The --json end notice once counted skipped and not-entered rows as answers not marked.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const UNSENT = new Set(['SKIPPED', 'EMPTY', 'NOT_ENTERED']);

interface Row {
  file: string;
  status: string;
}

describe('the counts of one run', () => {
  it('agree in the text summary, the --json end notice, the report and the rows', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          good: fc.integer({ min: 1, max: 4 }),
          failing: fc.integer({ min: 0, max: 2 }),
          empty: fc.integer({ min: 0, max: 2 }),
          unsupported: fc.integer({ min: 0, max: 2 }),
          subfolder: fc.boolean(),
          copies: fc.integer({ min: 0, max: 2 }),
        }),
        async (folder) => {
          const tag = `end counts ${runs++} ${Date.now()}`;
          const dir = join(tempDir('kct-end-counts-'), 'class');
          mkdirSync(dir);
          const essay = (i: number) => `Uniforms should be optional, because families pay too much (${tag}, answer ${i}).\n`;
          for (let i = 0; i < folder.good; i++) writeFileSync(join(dir, `good-${i}.txt`), essay(i));
          for (let i = 0; i < folder.copies; i++) writeFileSync(join(dir, `copy-${i}.txt`), essay(0));
          for (let i = 0; i < folder.failing; i++) writeFileSync(join(dir, `failing-${i}.txt`), `${essay(100 + i)}KCT-SANDBOX-FAIL\n`);
          for (let i = 0; i < folder.empty; i++) writeFileSync(join(dir, `empty-${i}.txt`), '');
          for (let i = 0; i < folder.unsupported; i++) writeFileSync(join(dir, `drawing-${i}.xyz`), 'not an answer');
          if (folder.subfolder) {
            mkdirSync(join(dir, 'sub'));
            writeFileSync(join(dir, 'sub', 'inside.txt'), essay(200));
          }
          const args = ['one-pass', dir, '--model', '12', '--skip-unsupported'];
          const env = { env: { KCT_POLL_INTERVAL: '50ms', NO_COLOR: '1' } };
          const text = await shared.kct([...args, '--output', 'ndjson'], env);
          const context = `${JSON.stringify(folder)}\n${text.stderr}\n${text.stdout}`;
          const rows = text.stdout
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as Row);
          const answers = rows.filter((row) => !UNSENT.has(row.status));
          const marked = answers.filter((row) => row.status === 'SUCCESS').length;
          const notSent = rows.length - answers.length;
          expect(text.code, context).toBe(folder.failing > 0 ? 3 : 0);
          expect(text.stderr, context).toContain(`Summary: ${marked} of ${answers.length} answer${answers.length === 1 ? '' : 's'} marked`);

          // the same run again under --json (free: every answer was marked or failed before)
          const json = await shared.kct([...args, '--json'], env);
          const end = json.stderr
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as { notice?: Record<string, unknown> })
            .filter((line) => line.notice?.code === 'info')
            .at(-1)?.notice as Record<string, unknown> & { summary: Record<string, number>; not_marked: Row[]; not_sent: Row[] };
          const jsonRows = JSON.parse(json.stdout) as Row[];
          expect(jsonRows.length, json.stderr).toBe(rows.length);
          expect(end.summary, json.stderr).toMatchObject({ answers: answers.length });
          expect(end.not_marked_count, json.stderr).toBe(answers.length - end.summary.marked);
          expect(end.not_sent_count, json.stderr).toBe(notSent);
          expect(end.not_marked.map((row) => row.status).filter((status) => UNSENT.has(status))).toEqual([]);
          expect(end.not_sent.length, json.stderr).toBe(notSent);

          // the report of the saved rows
          const saved = join(dir, '..', 'marks.ndjson');
          writeFileSync(saved, text.stdout);
          const report = await shared.kct(['report', saved, '--out', join(dir, '..', 'class.html'), '--json']);
          expect(JSON.parse(report.stdout), report.stderr).toMatchObject({
            answers: answers.length,
            marked,
            not_marked: answers.length - marked,
            not_sent: notSent,
          });
        },
      ),
      {
        examples: [[{ good: 3, failing: 1, empty: 1, unsupported: 0, subfolder: true, copies: 0 }]],
        numRuns: 4 + propertyRuns(4),
        seed: propertySeed(5150),
      },
    );
  }, 240_000);
});
