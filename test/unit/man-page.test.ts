// The man page's text is escaped for roff: backslashes, leading dots and quotes, non-ASCII.
import { describe, expect, it } from 'vitest';
import { roffEscape } from '../../src/cli/packaging/man-page.js';

describe('man page text', () => {
  it('escapes backslashes, leading dots and quotes, and non-ASCII characters', () => {
    expect(roffEscape('a\\b')).toBe('a\\eb');
    expect(roffEscape(".hidden\n'quoted")).toBe("\\&.hidden\n\\&'quoted");
    expect(roffEscape('café – ok')).toBe('caf\\[u00E9] \\[u2013] ok');
  });
});
