// A grade file's row and a mark with the same id are the same student only when their names agree
// (src/platforms/student-names.ts): read loosely (case, accents, punctuation, word order, Canvas's
// "lovelaceada", letters a file name lost), as a property over generated names (fast-check, seeded,
// shrinking); the students of another class are told apart.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { otherStudent } from '../../../src/platforms/student-names.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

const word = fc.constantFrom('Ada', 'Lovelace', 'Chloé', 'Dupont', "O'Neil", 'Finn', 'Mary', 'Ann', 'Wei', 'Xu', 'Núñez', 'Zoë');
const name = fc.uniqueArray(word, { minLength: 2, maxLength: 3 });

/** How each side may write one name: Moodle's "First Last", Canvas's "Last, First", its file name's letters ("lovelaceada"), another case. */
const spellings = (words: string[]): string[] => [
  words.join(' '),
  `${words[words.length - 1]}, ${words.slice(0, -1).join(' ')}`,
  [words[words.length - 1], ...words.slice(0, -1)]
    .join('')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z]/g, ''),
  words.join(' ').toUpperCase(),
  // a file name that lost the letters the platform could not keep
  [words[words.length - 1], ...words.slice(0, -1)]
    .join('')
    .toLowerCase()
    .replace(/[^a-z]/g, ''),
];

describe('the student of a row and of a mark', () => {
  it(`property: one name however each side writes it is the same student (seed ${propertySeed(5321)})`, () => {
    fc.assert(
      fc.property(name, fc.nat(4), fc.nat(4), (words, a, b) => {
        const forms = spellings(words);
        expect(otherStudent(forms[a], forms[b]), `${forms[a]} / ${forms[b]}`).toBeUndefined();
      }),
      { numRuns: propertyRuns(200), seed: propertySeed(5321) },
    );
  });

  it('the students of another class with the same ids are other students, said with both names', () => {
    for (const [ours, theirs] of [
      ['Ada Lovelace', 'Wei Xu'],
      ['Bo Chen', 'Yates, Kim'],
      ['Chloé Dupont', 'Pat Zed'],
      ["Finn O'Neil", 'Lou Ray'],
      ['lovelaceada', 'Xu, Wei'],
      // names alike in their letters, but no name in common
      ['Ann Lee', 'Anna Leeds'],
      ['Ann Lee', 'Leeann Smith'],
      ['Dan Lee', 'Daniel Leeson'],
      ['Chris Doe', 'Christine Dorne'],
      ['Al Li', 'Alice Lin'],
    ]) {
      const said = otherStudent(ours, theirs);
      expect(said, `${ours} / ${theirs}`).toContain(JSON.stringify(theirs));
      expect(said).toContain(JSON.stringify(ours));
    }
  });

  it('one student under a nickname, a changed surname or another spelling of one name: a name in common is enough', () => {
    for (const [ours, theirs] of [
      ['Bob Smith', 'Robert Smith'],
      ['Bill Gates', 'William Henry Gates III'],
      ['Ada King', 'Ada Lovelace'],
      ['Mohammed Ali', 'Muhammad Ali'],
      // a name of initials and marks is the same name however it is punctuated
      ['A😀,.é', 'A. É'],
      ['Seán "Jack" O\'Brien, Jr', 'Sean Jack OBrien, Jr'],
    ])
      expect(otherStudent(ours, theirs), `${ours} / ${theirs}`).toBeUndefined();
  });

  it('no name on either side, or Moodle\'s blind "Participant", is nothing to compare', () => {
    expect(otherStudent(undefined, 'Ada Lovelace')).toBeUndefined();
    expect(otherStudent('Ada Lovelace', undefined)).toBeUndefined();
    expect(otherStudent('Participant', 'Ada Lovelace')).toBeUndefined();
    expect(otherStudent('Ada Lovelace', 'Participant 101')).toBeUndefined();
    // blind marking in other languages, or its number joined on
    expect(otherStudent('Teilnehmer/in', 'Teilnehmer/in 12')).toBeUndefined();
    expect(otherStudent('Participant12', 'Ada Lovelace')).toBeUndefined();
  });
});
