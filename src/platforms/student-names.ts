// Whether the student a mark is for is the student of a grade file's row, by name. The platforms'
// ids are numbers that recur across courses and assignments, so a run filled into another class's
// file matches by id alone; the names tell. A name is read loosely: case, accents, punctuation,
// order ("Ada Lovelace", "Lovelace, Ada", Canvas's file name "lovelaceada") and letters one side
// dropped do not count; a name of another student shares too little to pass.

/** The forms a name may take: its letters in each word order that keeps the words in turn (the surname first or last), reversed, and sorted. */
function forms(name: string): string[] {
  const words = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const turns = words.map((_, i) => [...words.slice(i), ...words.slice(0, i)].join(''));
  return [...new Set([...turns, [...words].reverse().join(''), [...words].sort().join('')])].filter(Boolean);
}

/** Every letter of `short` in `long`, in order: a platform's file name drops letters it cannot keep ("nuezana" for Núñez, Ana). */
function within(short: string, long: string): boolean {
  let at = 0;
  for (const letter of long) if (letter === short[at]) at += 1;
  return at === short.length;
}

/** A name that names nobody in particular: Moodle's blind marking calls every student "Participant". */
const NO_NAME = /^\s*(?:participant(?:\s+\d+)?)?\s*$/i;

/**
 * Why the row's student is not the mark's, when both have a name and the names differ; undefined
 * when they agree, or either side has no name to compare.
 */
export function otherStudent(markName: string | undefined, rowName: string | undefined): string | undefined {
  if (markName === undefined || rowName === undefined || NO_NAME.test(markName) || NO_NAME.test(rowName)) return undefined;
  const ours = forms(markName);
  const theirs = forms(rowName);
  if (ours.some((a) => theirs.some((b) => within(a, b) || within(b, a)))) return undefined;
  return `the file's row is ${JSON.stringify(rowName.trim())}, and the mark with this id is ${JSON.stringify(markName.trim())}'s: is this the file of another course or assignment?`;
}
