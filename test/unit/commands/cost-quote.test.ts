// The cost line of a class run (src/commands/one-pass/notes.ts): the units it counts add up to the credits it estimates.
import { describe, expect, it } from 'vitest';
import { costQuote } from '../../../src/commands/one-pass/notes.js';
import type { RunPlan } from '../../../src/run/plan.js';

const plan = (toSend: number, filesToSend: number, unitsToSend: number) => ({ toSend, filesToSend, unitsToSend, reused: 0 }) as RunPlan;

describe('the cost line', () => {
  it('answers of files only: the files', () => {
    expect(costQuote({ cost: 1, answers: 1, files: 1 }, plan(3, 3, 3))).toContain('3 answers (3 files) to mark, about 3 credits');
  });

  it('an answer of text (a Moodle online text) is priced as one: it is named beside the files, which then add up', () => {
    expect(costQuote({ cost: 1, answers: 1, files: 1 }, plan(2, 2, 3))).toContain(
      '2 answers (2 files and 1 answer of text) to mark, about 3 credits',
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
