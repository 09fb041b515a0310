// The cost line of a class run (src/commands/one-pass/notes.ts): the units it counts add up to the credits it estimates.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costQuote } from '../../../src/commands/one-pass/notes.js';
import type { RunPlan } from '../../../src/run/plan.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

const plan = (toSend: number, filesToSend: number, unitsToSend: number) => ({ toSend, filesToSend, unitsToSend, reused: 0 }) as RunPlan;

describe('the cost line', () => {
  it('answers of files only: the files', () => {
    expect(costQuote({ cost: 1, answers: 1, files: 1 }, plan(3, 3, 3))).toContain('3 answers (3 files) to mark, about 3 credits');
  });

  it('an answer of text (a Moodle online text) is priced as one: counted apart from the answers with files, which then add up', () => {
    expect(costQuote({ cost: 1, answers: 1, files: 1 }, plan(2, 2, 3))).toContain(
      '2 answers (1 with 2 files, 1 of text) to mark, about 3 credits',
    );
    // walk-h4: "6 answers (6 files and 1 answer of text)" read as 7 answers
    expect(costQuote({ cost: 1, answers: 1, files: 1 }, plan(6, 6, 7))).toContain(
      '6 answers (5 with 6 files, 1 of text) to mark, about 7 credits',
    );
  });

  it(`property: the answers with files and of text add up to the answers, the files and texts to the credits (seed ${propertySeed(8302)})`, () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 30 }), (fileCounts) => {
        const files = fileCounts.reduce((a, b) => a + b, 0);
        const units = fileCounts.reduce((a, b) => a + Math.max(1, b), 0);
        const line = costQuote({ cost: 1, answers: 1, files: 1 }, plan(fileCounts.length, files, units));
        const [, answers, parts, credits] = /(\d+) answers? (?:\(([^)]*)\) )?to mark, about (\d+) credits?/.exec(line)!;
        expect(Number(answers)).toBe(fileCounts.length);
        expect(Number(credits)).toBe(units);
        const texts = fileCounts.filter((n) => n === 0).length;
        if (files === 0) expect(parts).toBeUndefined();
        else if (texts === 0) expect(parts).toBe(`${files} file${files === 1 ? '' : 's'}`);
        else {
          const [, withFiles, fileCount, textCount] = /^(\d+) with (\d+) files?, (\d+) of text$/.exec(parts)!;
          expect([Number(withFiles) + Number(textCount), Number(fileCount) + Number(textCount)]).toEqual([fileCounts.length, units]);
          expect(Number(textCount)).toBe(texts);
        }
      }),
      { numRuns: propertyRuns(200), seed: propertySeed(8302) },
    );
  });

  it("a file past 2 MiB: the rate is the first answer's, and a price may grow with size (the sandbox: a credit a started 2 MiB)", () => {
    const large = { ...plan(3, 3, 3), largestFile: 19 * 1024 * 1024 } as RunPlan;
    expect(costQuote({ cost: 1, answers: 1, files: 1 }, large)).toContain(
      'about 3 credits at that rate; files may be priced by their size, and the largest is 19.0 MiB',
    );
    expect(costQuote({ cost: 1, answers: 1, files: 1 }, { ...large, largestFile: 2 * 1024 * 1024 })).not.toContain('priced by their size');
  });

  it('text answers only: no count of files', () => {
    expect(costQuote({ cost: 2, answers: 1, files: 0 }, plan(4, 0, 4))).toContain('4 answers to mark, about 8 credits');
  });

  it('answers sent before: not charged again when the service knows their tasks, else what they may cost', () => {
    const reusing = { ...plan(2, 2, 2), reused: 3, unitsReused: 4 } as RunPlan;
    expect(costQuote({ cost: 1, answers: 1, files: 1 }, reusing)).toContain(
      'about 2 credits at that rate; 3 answers sent before are not charged again',
    );
    const unknown = costQuote({ cost: 1, answers: 1, files: 1 }, reusing, false);
    expect(unknown).toContain(
      'about 2 credits at that rate; up to 4 credits more for the 3 answers sent before from this machine, which the service may not know',
    );
    expect(unknown).not.toContain('not charged again');
  });

  it('every answer sent before, and unknown to the service: what they may cost, never "0 answers to mark, about 0 credits"', () => {
    const all = costQuote({ cost: 1, answers: 1, files: 1 }, { ...plan(0, 0, 0), reused: 14, unitsReused: 14 } as RunPlan, false);
    expect(all).toBe(
      'kct: cost: the service quoted 1 credit for the first answer (1 file: 1 credit a file); up to 14 credits for the 14 answers sent before from this machine, which the service may not know (charged only for answers marked)',
    );
  });
});
