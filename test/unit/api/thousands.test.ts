import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thousands } from '../../../src/api/thousands.js';

describe('thousands', () => {
  it('groups as toLocaleString("en") does, for every whole number', () => {
    fc.assert(
      fc.property(
        fc.maxSafeInteger().chain((n) => fc.constantFrom(n, Math.trunc(n / 1e6) || 0, Math.trunc(n / 1e11) || 0)),
        (n) => {
          expect(thousands(n)).toBe(n.toLocaleString('en'));
        },
      ),
      { seed: 34, numRuns: 500 },
    );
  });

  it('reads as a person writes it', () => {
    expect([0, 999, 1000, 20000, -1234567].map(thousands)).toEqual(['0', '999', '1,000', '20,000', '-1,234,567']);
  });
});
