// Text as Windows saves it, read exactly (src/api/text-bytes.ts decodedText): UTF-8, or UTF-16 by its
// byte order mark, and nothing guessed. UTF-16 is as strict as UTF-8: a damaged file is no text, so
// two damaged files never read as one text of replacement characters (one identity, one mark).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodedText } from '../../src/api/text-bytes.js';
import { propertyRuns, propertySeed } from './property-runs.js';

const le = (text: string) => Buffer.concat([Buffer.of(0xff, 0xfe), Buffer.from(text, 'utf16le')]);
const be = (text: string) => Buffer.concat([Buffer.of(0xfe, 0xff), Buffer.from(text, 'utf16le').swap16()]);

describe('decodedText', () => {
  it(`reads any text saved as UTF-8, UTF-8 with its mark, or UTF-16 either way, as that text (seed ${propertySeed(5381)})`, () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1 }), (text) => {
        expect(decodedText(Buffer.from(text, 'utf8'))).toBe(text);
        expect(decodedText(Buffer.concat([Buffer.of(0xef, 0xbb, 0xbf), Buffer.from(text, 'utf8')]))).toBe(text);
        expect(decodedText(le(text))).toBe(text);
        expect(decodedText(be(text))).toBe(text);
      }),
      { numRuns: propertyRuns(100), seed: propertySeed(5381) },
    );
  });

  it('a damaged UTF-16 file (a lone surrogate, an odd last byte) is no text, as invalid UTF-8 is not', () => {
    expect(decodedText(Buffer.concat([Buffer.of(0xff, 0xfe), Buffer.of(0x00, 0xd8, 0x41, 0x00)]))).toBeUndefined();
    expect(decodedText(Buffer.concat([le('An essay'), Buffer.of(0x41)]))).toBeUndefined();
    expect(decodedText(Buffer.of(0xc3, 0x28))).toBeUndefined();
  });
});
