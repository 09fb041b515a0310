// The order names are listed in: ICU's (Intl.Collator 'en', numeric), as a person reads them:
// "pupil-2" before "pupil-10", "anna" with "Anna", accents after their letter. A name of printable
// ASCII (nearly every file name) is compared here, by the same rules, without ICU: a process's
// first collator loads ICU's collation data, 3 MB of RSS and about 6 ms before a run's first
// request (docs/benchmarks.md). Any other name goes to the collator, made on first need.
// test/unit/natural-order.test.ts holds the two to the same answer for every pair of ASCII names.

/** ICU's primary order of the ASCII that is not a letter or a digit (CLDR root). */
const PUNCTUATION = ` _-,;:!?.'"()[]{}@*/\\&#%\`^+<=>|~$`;
const DIGIT = 64;
const LETTER = 65;
/** Primary weight by character code: punctuation in ICU's order, then the digits, then the letters with their case folded. */
const PRIMARY = new Uint8Array(128);
for (let i = 0; i < PUNCTUATION.length; i++) PRIMARY[PUNCTUATION.charCodeAt(i)] = i + 1;
for (let code = 48; code <= 57; code++) PRIMARY[code] = DIGIT;
for (let code = 97; code <= 122; code++) PRIMARY[code] = PRIMARY[code - 32] = LETTER + code - 97;

/** Printable ASCII, and short enough that ICU never splits a run of digits (it does past 254). */
const PLAIN = /^[\x20-\x7e]{0,200}$/;

let collator: Intl.Collator['compare'] | undefined;

/** Compares two names as Intl.Collator('en', { numeric: true }) does. */
export function naturalOrder(a: string, b: string): number {
  if (!PLAIN.test(a) || !PLAIN.test(b)) {
    collator ??= new Intl.Collator('en', { numeric: true }).compare;
    return collator(a, b);
  }
  return plainOrder(a, b);
}

/** Whether naturalOrder compares this name without ICU (plainOrder). */
export function isPlainName(name: string): boolean {
  return PLAIN.test(name);
}

/** naturalOrder of two names that are both isPlainName: a sort tests each name once, not twice a comparison. */
export function plainOrder(a: string, b: string): number {
  // primary: characters with case folded, runs of digits by their value; then case, lower first
  // (no array destructuring here: a folder's one sort runs this cold, where destructuring iterates)
  let i = 0;
  let j = 0;
  let tertiary = 0;
  while (i < a.length && j < b.length) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(j);
    if (PRIMARY[x] === DIGIT && PRIMARY[y] === DIGIT) {
      const endA = digitsEnd(a, i);
      const endB = digitsEnd(b, j);
      const byValue = compareNumbers(a, skipZeros(a, i, endA), endA, b, skipZeros(b, j, endB), endB);
      if (byValue !== 0) return byValue;
      i = endA;
      j = endB;
      continue;
    }
    if (PRIMARY[x] !== PRIMARY[y]) return PRIMARY[x] < PRIMARY[y] ? -1 : 1;
    if (tertiary === 0 && x !== y) tertiary = x > 96 ? -1 : 1; // the same letter, one lower case: it goes first
    i += 1;
    j += 1;
  }
  if (i < a.length) return 1;
  if (j < b.length) return -1;
  return tertiary;
}

function digitsEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && PRIMARY[text.charCodeAt(end)] === DIGIT) end += 1;
  return end;
}

/** Leading zeros weigh nothing: "007" is 7. */
function skipZeros(text: string, from: number, end: number): number {
  let start = from;
  while (start < end && text.charCodeAt(start) === 48) start += 1;
  return start;
}

function compareNumbers(a: string, startA: number, endA: number, b: string, startB: number, endB: number): number {
  if (endA - startA !== endB - startB) return endA - startA < endB - startB ? -1 : 1;
  for (let k = 0; k < endA - startA; k++) {
    const x = a.charCodeAt(startA + k);
    const y = b.charCodeAt(startB + k);
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
