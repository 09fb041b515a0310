// A whole number typed as an id or a count is the number kct sends and names, or it is refused
// (exit 2): past 2^53 JavaScript rounds it, and `kct models show 99999999999999999999` named model
// 100000000000000000000, a number no one typed. Property (fast-check, seeded, shrinking;
// docs/testing.md) over generated digit strings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { parsePositiveInteger } from '../../src/cli/core/parse.js';
import { runKct } from './cli/run-kct.js';
import { propertyRuns, propertySeed } from './property-runs.js';

describe('whole numbers typed', () => {
  it(`property: are read as exactly the number typed, or refused (seed ${propertySeed(5201)})`, () => {
    const digits = fc.oneof(fc.stringMatching(/^[0-9]{1,25}$/), fc.bigInt({ min: 1n, max: 2n ** 70n }).map(String));
    fc.assert(
      fc.property(digits, (typed) => {
        let read: number;
        try {
          read = parsePositiveInteger(typed, 'the model id');
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          expect(BigInt(typed) === 0n || BigInt(typed) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
          return;
        }
        expect(BigInt(read)).toBe(BigInt(typed));
      }),
      { numRuns: propertyRuns(200), seed: propertySeed(5201) },
    );
  });

  it('kct models show of an id past 2^53 is refused before anything is sent, naming the id as typed', async () => {
    const run = await runKct(['models', 'show', '99999999999999999999']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('99999999999999999999 is too large');
    expect(run.stderr).not.toContain('100000000000000000000');
  });
});
