// Every word marked is printed: a manifest whose items name their own model_id (documented) is
// marked on several rubrics at once. Its CSV once took its criterion columns from the first marked
// item only, so the others' criterion scores were dropped without a word, and its summary gave one
// mean over totals out of 20 and out of 10. Over generated manifests on models 12 and 13 (the
// sandbox's: four criteria out of 20, five out of 10), against a real sandbox: every criterion
// score of every row (as ndjson has it) is in the CSV, and the summary does not put different
// scales on one.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

interface Row {
  student_id: string;
  max_score: number;
  evaluation: { item: string; score: number; type?: string }[];
}

describe('a batch marked on several models', () => {
  it('property: the CSV has every criterion score of every row, and the summary keeps the scales apart', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(12, 13), { minLength: 1, maxLength: 4 }), async (models) => {
        const tag = `mixed ${runs++} ${Date.now()}`;
        const manifest = join(tempDir('kct-mixed-models-'), 'answers.jsonl');
        const items = models.map((model_id, i) => ({
          student_id: `pupil-${i + 1}`,
          model_id,
          paper_content: `Schools should not require uniforms (${tag}, ${i}): they cost families money, and George's dream in Of Mice and Men shows why people need hope.`,
        }));
        writeFileSync(manifest, `${items.map((item) => JSON.stringify(item)).join('\n')}\n`);
        const marked = await shared.kct(['batch', manifest, '--output', 'ndjson']);
        expect(marked.code, marked.stderr).toBe(0);
        const rows = marked.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Row);
        // the same manifest again replays the batch, free: now as CSV
        const csv = await shared.kct(['batch', manifest, '--output', 'csv']);
        expect(csv.code, csv.stderr).toBe(0);
        const table = parse(csv.stdout, { columns: true }) as Record<string, string>[];
        expect(table).toHaveLength(rows.length);
        for (const row of rows) {
          const line = table.find((cells) => cells.student_id === row.student_id)!;
          for (const entry of row.evaluation.filter((e) => e.type !== 'error'))
            expect(Number(line[entry.item]), `${row.student_id} ${entry.item}\n${csv.stdout}`).toBe(entry.score);
        }
        const maxima = new Set(rows.map((row) => row.max_score));
        if (maxima.size > 1) expect(marked.stderr).not.toMatch(/Totals: mean [\d.]+ \/ \d/);
        else expect(marked.stderr).toMatch(/Totals: mean [\d.]+ \/ \d/);
      }),
      { examples: [[[12, 13]]], numRuns: 1 + propertyRuns(4), seed: propertySeed(4713) },
    );
  });
});
