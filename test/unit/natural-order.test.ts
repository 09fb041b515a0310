import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { naturalOrder } from '../../src/cli/answers/natural-order.js';

const icu = new Intl.Collator('en', { numeric: true }).compare;
const sign = (n: number) => Math.sign(n);

/** Names as folders hold them: letters of both cases, digits (leading zeros too), and every printable ASCII mark. */
const part = fc.oneof(
  fc.constantFrom('a', 'A', 'b', 'B', 'e', 'E', 'z', 'Z', 'pupil', 'Pupil', 'PUPIL', 's', '.txt', '.TXT', ' ', '-', '_'),
  fc.integer({ min: 0, max: 100_000 }).map(String),
  fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(3, '0')),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 4 }),
);
const name = fc.array(part, { maxLength: 6 }).map((parts) => parts.join(''));

describe('naturalOrder', () => {
  it('orders every pair of ASCII names as ICU does', () => {
    fc.assert(
      fc.property(name, name, (a, b) => {
        expect(sign(naturalOrder(a, b))).toBe(sign(icu(a, b)));
      }),
      { seed: 34, numRuns: 20_000 },
    );
  });

  it('orders names equal but for case and leading zeros as ICU does (its tertiary level)', () => {
    const variant = (text: string, flips: boolean[]) =>
      [...text]
        .map((char, k) => (flips[k % flips.length] ? (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()) : char))
        .join('');
    const padded = (text: string, zeros: number) => text.replace(/\d+/, (digits) => '0'.repeat(zeros) + digits);
    fc.assert(
      fc.property(name, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), fc.nat(3), (a, flips, zeros) => {
        const b = padded(variant(a, flips), zeros);
        expect(sign(naturalOrder(a, b))).toBe(sign(icu(a, b)));
        expect(sign(naturalOrder(b, a))).toBe(sign(icu(b, a)));
      }),
      { seed: 34, numRuns: 20_000 },
    );
  });

  it('sorts a listing as ICU sorts it, names beyond ASCII included', () => {
    const beyond = fc.constantFrom('Zoë', 'zoe', 'Émile', 'emile', 'Øyvind', 'ångström', 'naïve', '学生', 'e\u0301', 'tab\there');
    fc.assert(
      fc.property(fc.array(fc.oneof(name, beyond), { maxLength: 40 }), (names) => {
        expect([...names].sort(naturalOrder)).toEqual([...names].sort(icu));
      }),
      { seed: 34, numRuns: 2_000 },
    );
  });

  it('reads as a teacher expects', () => {
    const listing = ['pupil-10.txt', 'Pupil-2.txt', 'pupil-1.txt', 'pupil-02b.txt', 'anna.txt', 'Anna.txt', 'Émile.txt', 'zoë.txt'];
    expect(listing.sort(naturalOrder)).toEqual([
      'anna.txt',
      'Anna.txt',
      'Émile.txt',
      'pupil-1.txt',
      'Pupil-2.txt',
      'pupil-02b.txt',
      'pupil-10.txt',
      'zoë.txt',
    ]);
  });
});
