// Whether the student a mark is for is the student of a grade file's row, by name. The platforms'
// ids are numbers that recur across courses and assignments, so a run filled into another class's
// file matches by id alone; the names tell. Two names are one student when they share a word (a
// first name or a surname: "Bob Smith" and "Robert Smith", "Lovelace, Ada"), read without case,
// accents or punctuation; a name run together from a file name (Canvas's "lovelaceada") when its
// letters are the other's in order. A placeholder (blind marking's "Participant 12") is no name.

/** A name's words, without case, accents or punctuation. */
function words(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A name's words run together in each order that keeps them in turn (the surname first or last), and sorted. */
function runTogether(name: string[]): string[] {
  const turns = name.map((_, i) => [...name.slice(i), ...name.slice(0, i)].join(''));
  return [...turns, [...name].sort().join('')];
}

/** Every letter of `short` in `long`, in order: a platform's file name drops letters it cannot keep ("nuezana" for Núñez, Ana). */
function within(short: string, long: string): boolean {
  let at = 0;
  for (const letter of long) if (letter === short[at]) at += 1;
  return at === short.length;
}

/** A name that names nobody in particular: Moodle's blind marking ("Participant", "Teilnehmer/in 12"), or no name at all. */
const placeholder = (name: string): boolean => /\d/.test(name) || /^\s*(?:participant)?\s*$/i.test(name);

/**
 * Why the row's student is not the mark's, when both have a name and the names differ; undefined
 * when they agree, or either side has no name to compare.
 */
export function otherStudent(markName: string | undefined, rowName: string | undefined): string | undefined {
  if (markName === undefined || rowName === undefined || placeholder(markName) || placeholder(rowName)) return undefined;
  const ours = words(markName);
  const theirs = words(rowName);
  if (ours.length === 0 || theirs.length === 0) return undefined;
  const together = runTogether(theirs);
  if (runTogether(ours).some((form) => together.includes(form))) return undefined;
  if (ours.some((word) => word.length > 1 && theirs.includes(word))) return undefined;
  // one side is a file name's letters run together: compared with the other's words run together
  if (ours.length === 1 || theirs.length === 1) {
    const [one, other] = ours.length === 1 ? [ours[0], theirs] : [theirs[0], ours];
    if (runTogether(other).some((form) => within(one, form) || within(form, one))) return undefined;
  }
  return `the file's row is ${JSON.stringify(rowName.trim())}, and the mark with this id is ${JSON.stringify(markName.trim())}'s, with no name in common: is this the file of another course or assignment? (If it is the same student under another name, enter the grade by hand.)`;
}
