// The CSV formula guard (OWASP CSV injection): what is prefixed with ' and what is left alone.
import { describe, expect, it } from 'vitest';
import { guardFormula } from '../../src/cli/render/rows.js';

describe('guardFormula', () => {
  it.each([
    ['=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\r=1', "'\r=1"],
    ['-\n=1', "'-\n=1"],
  ])('prefixes %j', (value, guarded) => expect(guardFormula(value)).toBe(guarded));

  it.each(['-', '=', '+', '@', '', 'pupil-1.txt', 'a=b', '/tmp/-x'])('leaves %j as it is', (value) =>
    expect(guardFormula(value)).toBe(value),
  );
});
