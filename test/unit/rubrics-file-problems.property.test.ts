// `kct models create` says every problem of a rubrics file at once (preview-file.ts, one gatherer):
// over generated files with fields of the wrong type, unknown fields, and a total the maxima make
// or miss (in the file or from --total-score), every fault is said once, the total's own problem
// beside the type errors when it can be known, and "cannot be checked" once when it cannot.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { buildModelRequest } from '../../src/cli/models/preview-file.js';
import { propertyRuns, propertySeed } from './property-runs.js';

let dir: string;
let made = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kct-rubrics-problems-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const QUESTIONS = 'assignment_name: Letter\nassignment_desc: Write a letter.\nquestions:\n  - number: "1"\n    text: Write it.\n';

const file = fc
  .record({
    maxima: fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 5 }),
    off: fc.integer({ min: -3, max: 3 }),
    method: fc.constantFrom('sum' as const, 'average' as const),
    byFlag: fc.boolean(),
    unknownOn: fc.option(fc.nat(), { nil: undefined }),
    textMax: fc.array(fc.nat(), { maxLength: 3 }),
  })
  .map((f) => ({
    ...f,
    unknownOn: f.unknownOn === undefined ? undefined : f.unknownOn % f.maxima.length,
    textMax: [...new Set(f.textMax.map((i) => i % f.maxima.length))],
  }));

describe('a rubrics file with several problems', () => {
  it(`has each said once, in one run (seed ${propertySeed(3071)})`, async () => {
    await fc.assert(
      fc.asyncProperty(file, async (f) => {
        const sum = f.maxima.reduce((n, m) => n + m, 0);
        const total = Math.max(1, sum + f.off);
        const lines = [`cum_method: ${f.method}`, ...(f.byFlag ? [] : [`total_score: ${total}`]), 'rubrics:'];
        f.maxima.forEach((max, i) => {
          lines.push(`  - item: Criterion ${i + 1}`, `    max_score: ${f.textMax.includes(i) ? `"${max} marks"` : max}`);
          if (f.unknownOn === i) lines.push('    weight: 1');
        });
        made += 1;
        const [questions, rubrics] = [join(dir, `q${made}.yaml`), join(dir, `r${made}.yaml`)];
        await Promise.all([writeFile(questions, QUESTIONS), writeFile(rubrics, `${lines.join('\n')}\n`)]);
        const inputs = { questions, rubrics, ...(f.byFlag ? { totalScore: total } : {}) };

        const totalMissed = f.method === 'sum' && f.textMax.length === 0 && total !== sum;
        const uncheckable = f.method === 'sum' && f.textMax.length > 0;
        const expected = f.textMax.length + (f.unknownOn === undefined ? 0 : 1) + (totalMissed || uncheckable ? 1 : 0);
        let message = '';
        try {
          await buildModelRequest(inputs);
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          message = (error as Error).message;
        }
        if (expected === 0) {
          expect(message).toBe('');
          return;
        }
        expect(message).toMatch(new RegExp(`^${expected === 1 ? 'a problem' : `${expected} problems`} in `));
        for (const i of f.textMax) expect(message).toContain(`rubrics[${i}].max_score: expected number`);
        if (f.unknownOn !== undefined) expect(message).toContain(`rubrics[${f.unknownOn}].weight: unknown field "weight"`);
        const count = (text: string) => message.split(text).length - 1;
        expect(count('the total cannot be checked until every max_score is a number')).toBe(uncheckable ? 1 : 0);
        expect(count(`the criterion maxima add up to ${sum}, `)).toBe(totalMissed ? 1 : 0);
        if (totalMissed) expect(message).toContain(f.byFlag ? `--total-score ${total}: ` : `total_score: the criterion maxima`);
      }),
      { numRuns: propertyRuns(120), seed: propertySeed(3071) },
    );
  });
});
