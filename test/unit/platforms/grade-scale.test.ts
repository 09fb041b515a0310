import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ROUNDINGS, type Rounding, scaleGrade } from '../../../src/platforms/grade-scale.js';
import { PROPERTY_SETTINGS } from './fixtures.js';

const STEP: Record<Rounding, number> = { integer: 1, half: 0.5, 'one-decimal': 0.1, 'two-decimals': 0.01 };

describe('scaleGrade', () => {
  test('scales to the column\'s maximum and writes a plain decimal with "."', () => {
    expect(scaleGrade({ score: 17, maxScore: 20 }, 100, 'two-decimals')).toEqual({ ok: true, value: 85, text: '85.00' });
    expect(scaleGrade({ score: 17, maxScore: 20 }, 100, 'integer')).toEqual({ ok: true, value: 85, text: '85' });
    expect(scaleGrade({ score: 2, maxScore: 3 }, 10, 'two-decimals')).toEqual({ ok: true, value: 6.67, text: '6.67' });
  });

  test('rounds half up on the decimal value, not its binary approximation', () => {
    expect(scaleGrade({ score: 1.005, maxScore: 2 }, 2, 'two-decimals')).toMatchObject({ text: '1.01' });
    expect(scaleGrade({ score: 8.25, maxScore: 10 }, 10, 'half')).toMatchObject({ text: '8.5' });
    expect(scaleGrade({ score: 8.24, maxScore: 10 }, 10, 'half')).toMatchObject({ text: '8.0' });
  });

  test('refuses scores outside the rubric and unusable marks', () => {
    expect(scaleGrade({ score: 21, maxScore: 20 }, 100, 'integer')).toMatchObject({ ok: false, reason: 'out-of-range' });
    expect(scaleGrade({ score: -0.5, maxScore: 20 }, 100, 'integer')).toMatchObject({ ok: false, reason: 'out-of-range' });
    expect(scaleGrade({ score: 1, maxScore: 0 }, 100, 'integer')).toMatchObject({ ok: false, reason: 'invalid-mark' });
    expect(scaleGrade({ score: Number.NaN, maxScore: 20 }, 100, 'integer')).toMatchObject({ ok: false, reason: 'invalid-mark' });
  });

  test('property: a score in range gives a grade within 0..maximum, within one rounding step of the exact value', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom(1, 5, 7.5, 10, 20, 100, 250),
        fc.constantFrom(...ROUNDINGS),
        (fraction, maxScore, maximum, rounding) => {
          const score = fraction * maxScore;
          const grade = scaleGrade({ score, maxScore }, maximum, rounding);
          if (!grade.ok) throw new Error(grade.detail);
          expect(grade.value).toBeGreaterThanOrEqual(0);
          expect(grade.value).toBeLessThanOrEqual(maximum);
          expect(Math.abs(grade.value - (score * maximum) / maxScore)).toBeLessThanOrEqual(STEP[rounding] + 1e-9);
          expect(Number(grade.text)).toBe(grade.value);
          expect(grade.text).toMatch(/^\d+(\.\d+)?$/);
        },
      ),
      PROPERTY_SETTINGS,
    );
  });
});
