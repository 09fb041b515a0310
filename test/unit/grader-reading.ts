// Reading the grader's Bullet feedback back, as a teacher reads it: the level named and its
// descriptor, the caveat, each Shows and Lacks line, the quotation and what it is offered for, and
// the next step; and the numbers a text says, outside the quotations in it.
import { expect } from 'vitest';
import { type Clause, readClaims } from '../../packages/sandbox/src/engines/grading/claims.js';

export interface Read {
  /** The points of the level (or two levels, halfway between) named in the first line. */
  levels: number[];
  /** The descriptor quoted for it, when one is. */
  descriptor: string | undefined;
  caveat: string | undefined;
  shows: string[];
  lacks: string[];
  proof: { kind: 'shows' | 'lacks'; finding: string } | undefined;
  quote: string | undefined;
  /** The advice of the next step (after the level it leads to). */
  step: string;
}

const LEVEL = String.raw`(?:level (\d+(?:\.\d+)?)(?: \(“(.*?)”\))?|the sandbox’s level that .*? \((\d+(?:\.\d+)?) of [\d.]+\))`;
const FIRST = new RegExp(`\\(sandbox grader\\): (?:at|nearest|halfway between) ${LEVEL}(?: and ${LEVEL})?`);
const STEP =
  /^Next step(?::|, (?:towards (?:level [\d.]+ \(“.*?”\)|the sandbox’s level that .*? \([\d.]+ of [\d.]+\))|at the top level):) (.*)\.$/;

export function readBullet(feedback: string): Read {
  const lines = feedback.split('\n').map((l) => l.replace(/^- /, ''));
  // An answer with nothing to mark names no level.
  const first = FIRST.exec(lines[0]) ?? [];
  if (!/\(sandbox grader\)\.$/.test(lines[0])) expect(first.length, lines[0]).toBeGreaterThan(0);
  const out: Read = {
    levels: [first[1] ?? first[3], first[4] ?? first[6]].filter((x): x is string => x !== undefined).map(Number),
    descriptor: first[2],
    caveat: undefined,
    shows: [],
    lacks: [],
    proof: undefined,
    quote: undefined,
    step: '',
  };
  for (const line of lines.slice(1)) {
    const shows = /^Shows(?: \([^)]*\))?: (.*)\.$/.exec(line);
    if (shows) out.shows = shows[1].split('; ');
    else if (line.startsWith('Lacks: ')) out.lacks = line.slice(7).replace(/\.$/, '').split('; ');
    else if (line.startsWith('From the answer: ')) {
      const m = /^From the answer: “(.+)” \((shows|lacks) (.+)\)\.$/.exec(line);
      expect(m, line).not.toBeNull();
      out.quote = m![1];
      out.proof = { kind: m![2] as 'shows' | 'lacks', finding: m![3] };
    } else if (line.startsWith('Next step')) {
      const m = STEP.exec(line);
      expect(m, line).not.toBeNull();
      out.step = m![1];
    } else if (!line.startsWith('Earlier feedback')) out.caveat = line;
  }
  return out;
}

/** What a reading claims about the answer: the descriptor quoted, the caveat, every Shows and Lacks line. */
export function claimsOf(read: Read): Clause[] {
  return [
    ...(read.descriptor ? readClaims(read.descriptor) : []),
    ...(read.caveat ? readClaims(read.caveat) : []),
    ...read.shows.flatMap((s) => readClaims(s, 'states')),
    ...read.lacks.flatMap((l) => readClaims(l, 'lacks')),
  ];
}

/** The numbers a text states in its own words: quotations (“…”), which are the answer's or the rubric's, are left out. */
export function numbersIn(text: string): number[] {
  return (text.replace(/“[^”]*”/g, ' ').match(/\d+(?:\.\d+)?/g) ?? []).map(Number);
}

/** Every number anywhere in a record. */
export function numbersOf(value: unknown, into = new Set<number>()): Set<number> {
  if (typeof value === 'number') into.add(value);
  else if (Array.isArray(value)) for (const v of value) numbersOf(v, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) numbersOf(v, into);
  return into;
}
