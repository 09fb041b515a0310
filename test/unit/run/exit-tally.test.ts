// A run's exit status from its rows (src/run/exit-tally.ts): a result known to be bad (3) outranks
// one not known yet (8), whatever the order the rows came in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import { exitCodeFor } from '../../../src/cli/core/exit-codes.js';
import { ClassTally } from '../../../src/cli/render/tally.js';
import { ExitTally } from '../../../src/run/exit-tally.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

/**
 * A row by its status; `SUCCESS_NO_SCORE` is a SUCCESS whose result had no score (a service that
 * left it out); `ERROR` a row with no result and no error of kct's (a batch's record leaving its item out).
 */
function rowOf(status: string, i: number) {
  const unscored = status === 'SUCCESS_NO_SCORE';
  return {
    file: `a${i}.txt`,
    status: unscored ? 'SUCCESS' : status,
    task_id: status === 'ERROR' ? undefined : `tsk_${i}`,
    score: status === 'SUCCESS' ? 7 : unscored ? null : undefined,
    ...(status === 'ERROR' ? { message: `the batch tsk_b returned no item ${i + 1}` } : {}),
  };
}

function exitOf(statuses: readonly string[]): { code: number; message?: string } {
  const tally = new ExitTally();
  statuses.forEach((status, i) => tally.count(rowOf(status, i)));
  try {
    tally.throwExitStatus({ anySent: true, timeoutMs: 4000 });
    return { code: 0 };
  } catch (error) {
    return { code: exitCodeFor(error), message: (error as Error).message };
  }
}

describe('the exit status of a run', () => {
  it(`3 when any answer ended FAILURE or CANCEL, else 8 when any was still running, else 0 (seed ${propertySeed(3838)})`, () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('SUCCESS', 'FAILURE', 'CANCEL', 'TIMEOUT'), { maxLength: 12 }), (statuses) => {
        const expected = statuses.some((s) => s === 'FAILURE' || s === 'CANCEL') ? 3 : statuses.includes('TIMEOUT') ? 8 : 0;
        expect(exitOf(statuses).code).toBe(expected);
      }),
      { numRuns: propertyRuns(200), seed: propertySeed(3838) },
    );
  });

  it(`exits 0 only when the summary counts every answer marked; a SUCCESS with no score, or no result, is 1, after failures (seed ${propertySeed(3840)})`, () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('SUCCESS', 'SUCCESS_NO_SCORE', 'ERROR', 'FAILURE', 'CANCEL', 'TIMEOUT', 'SKIPPED', 'EMPTY'), {
          maxLength: 12,
        }),
        (statuses) => {
          const summary = new ClassTally();
          statuses.forEach((status, i) => summary.add(rowOf(status, i)));
          const { answers, marked } = summary.answersSoFar();
          const { code, message } = exitOf(statuses);
          expect(code === 0, message).toBe(marked === answers);
          const expected = statuses.some((s) => s === 'FAILURE' || s === 'CANCEL')
            ? 3
            : statuses.includes('SUCCESS_NO_SCORE') || statuses.includes('ERROR')
              ? 1
              : statuses.includes('TIMEOUT')
                ? 8
                : 0;
          expect(code, message).toBe(expected);
          // the summary's line names them as the exit message does
          expect(summary.summary().unscored).toBe(statuses.filter((s) => s === 'SUCCESS_NO_SCORE').length);
        },
      ),
      { numRuns: propertyRuns(200), seed: propertySeed(3840) },
    );
  });

  it('a failure beside a time-out: 3, and the message says the others are still running', () => {
    const { code, message } = exitOf(['TIMEOUT', 'FAILURE', 'SUCCESS']);
    expect(code).toBe(3);
    expect(message).toContain(
      '1 of 3 answers ended FAILURE or CANCEL, and 1 still running at --timeout (the same command again collects them)',
    );
  });

  it("names a batch's task once when its answers are still running, and counts tasks, not answers, past those named", () => {
    const tally = new ExitTally();
    for (let i = 0; i < 4; i++) tally.count({ file: `a${i}.txt`, status: 'TIMEOUT', task_id: 'tsk_batch' });
    for (let i = 0; i < 25; i++) tally.count({ file: `b${i}.txt`, status: 'TIMEOUT', task_id: `tsk_${i}` });
    const error = (() => {
      try {
        tally.throwExitStatus({ anySent: true, timeoutMs: 4000 });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/^still not final after 4 s: tsk_batch, tsk_0, .*, tsk_18 and 6 more$/);
  });

  it(`counts the answers its message names as the summary does: a row that is no answer (SKIPPED, EMPTY, NOT_ENTERED) is not one (seed ${propertySeed(3839)})`, () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('SUCCESS', 'FAILURE', 'CANCEL', 'SKIPPED', 'EMPTY', 'NOT_ENTERED'), { minLength: 2, maxLength: 12 }),
        (statuses) => {
          const summary = new ClassTally();
          statuses.forEach((status) => summary.add({ status, score: status === 'SUCCESS' ? 1 : undefined }));
          const { message } = exitOf(statuses);
          const named = /(\d+) of (\d+) answers ended/.exec(message ?? '');
          if (named) expect(Number(named[2]), message).toBe(summary.answersSoFar().answers);
        },
      ),
      { numRuns: propertyRuns(200), seed: propertySeed(3839) },
    );
  });
});

it('a SUCCESS with no score beside a time-out: 1, and the message says the others are still running, as a failure says it', () => {
  const { code, message } = exitOf(['TIMEOUT', 'SUCCESS_NO_SCORE', 'SUCCESS']);
  expect(code).toBe(1);
  expect(message).toContain('1 of 3 answers ended SUCCESS with no score');
  expect(message).toContain('and 1 still running at --timeout (the same command again collects them)');
});

describe('a run stopped by a refusal after tasks were accepted', () => {
  const refusals = [
    () => ApiError.from(401, { message: 'The API key was revoked' }),
    () => ApiError.from(403, { message: 'No longer an admin' }),
    () => ApiError.from(402, { message: 'Insufficient credits' }),
  ];
  it('keeps its exit code, and says the accepted tasks keep running and the same command collects them', () => {
    for (const refusal of refusals) {
      for (const anySent of [true, false]) {
        const tally = new ExitTally();
        tally.fatal = refusal();
        let thrown: unknown;
        try {
          tally.throwExitStatus({ anySent, timeoutMs: 4000 });
        } catch (error) {
          thrown = error;
        }
        expect(exitCodeFor(thrown)).toBe(exitCodeFor(refusal()));
        const suggestion = (thrown as ApiError).suggestion ?? '';
        if (anySent)
          expect(suggestion).toMatch(/collects the tasks already accepted, which keep running and are charged when they succeed/);
        else expect(suggestion).not.toContain('already accepted');
      }
    }
  });
});
