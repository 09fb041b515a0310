// What a piece of feedback claims about an answer: the features that a level descriptor, a Shows
// line or a Lacks line asserts or denies, read with the words of feature-vocabulary.json. The
// grader reads the rubric's descriptors and its own lines with it, so that the level it names, the
// score and the lines it writes come from one judgement; the tests read the feedback back with it.
import VOCABULARY from './feature-vocabulary.json' with { type: 'json' };

export type FeatureId = string;
/** "The answer has `feature`" (holds) or "it does not". */
interface Claim {
  feature: FeatureId;
  holds: boolean;
}
/** Claims of which at least one holds: "vague, late, or only implied" is one clause of three. Most clauses have one claim. */
export type Clause = Claim[];
/** A level descriptor, a Shows line or a caveat states; a Lacks line names what is missing. */
export type Polarity = 'states' | 'lacks';

interface FeatureEntry {
  id: string;
  implies?: string[];
  asserts: string[];
  denies: string[];
  near?: { subject: string[]; asserts: string[]; denies: string[] };
}
interface Meaning {
  claims: Claim[];
  near?: string;
}

const FEATURES = VOCABULARY.features as FeatureEntry[];
export const FEATURE_IDS: readonly FeatureId[] = FEATURES.map((f) => f.id);

const SEPARATOR = String.raw`[\s,\-–—]+`;
const tokens = (phrase: string) =>
  phrase
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .split(/[\s,\-–—]+/)
    .filter(Boolean);
const keyOf = (phrase: string) => tokens(phrase).join(' ');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every phrase, by its words, with what it claims; several features may share a phrase ("a few slips"). */
const MEANINGS = new Map<string, Meaning[]>();
function learn(phrase: string, meaning: Meaning): void {
  const key = keyOf(phrase);
  const known = MEANINGS.get(key);
  if (known) known.push(meaning);
  else MEANINGS.set(key, [meaning]);
}
for (const phrase of VOCABULARY.neutral) learn(phrase, { claims: [] });
for (const f of FEATURES) {
  for (const p of f.asserts) learn(p, { claims: [{ feature: f.id, holds: true }] });
  for (const p of f.denies) learn(p, { claims: [{ feature: f.id, holds: false }] });
  for (const p of f.near?.asserts ?? []) learn(p, { claims: [{ feature: f.id, holds: true }], near: f.id });
  for (const p of f.near?.denies ?? []) learn(p, { claims: [{ feature: f.id, holds: false }], near: f.id });
}

// One pattern of every phrase, longest first, tried at each word's start: the longest phrase there wins.
const PHRASE = new RegExp(
  `(?:${[...MEANINGS.keys()]
    .sort((a, b) => b.length - a.length)
    .map((k) => k.split(' ').map(escapeRegExp).join(SEPARATOR))
    .join('|')})(?![\\p{L}\\p{N}])`,
  'uy',
);
const SUBJECTS = new Map(
  FEATURES.filter((f) => f.near).map((f) => [
    f.id,
    new RegExp(`(?<![\\p{L}])(?:${f.near!.subject.map((s) => tokens(s).map(escapeRegExp).join(SEPARATOR)).join('|')})`, 'u'),
  ]),
);

interface Found {
  start: number;
  end: number;
  meanings: Meaning[];
}

function phrasesIn(fragment: string): Found[] {
  const found: Found[] = [];
  for (const word of fragment.matchAll(/[\p{L}\p{N}]+/gu)) {
    PHRASE.lastIndex = word.index;
    const m = PHRASE.exec(fragment);
    if (m) found.push({ start: word.index, end: word.index + m[0].length, meanings: MEANINGS.get(keyOf(m[0]))! });
  }
  // A phrase inside a longer one is not read on its own: "no real counter-argument" is not also "counter-argument".
  return found.filter((a) => !found.some((b) => b !== a && b.start <= a.start && b.end >= a.end));
}

/** Consecutive phrases joined as a list ("vague, late, or only implied"); `or` says whether any link is "or". */
function linked(gap: string): { link: boolean; or: boolean } {
  if (/^[\s,]*$/.test(gap)) return { link: true, or: false };
  const or = /\b(?:or|nor)\b/.test(gap);
  return { link: or && gap.trim().split(/\s+/).length <= 3, or };
}

const cache = new Map<string, Clause[]>();

/**
 * The clauses a text claims, read fragment by fragment (at full stops, semicolons and colons).
 * Asides in brackets are detail, not claims, and are not read. In a Lacks line, a phrase that
 * asserts a feature names what is missing, so it denies it.
 */
export function readClaims(text: string, polarity: Polarity = 'states'): Clause[] {
  const key = `${polarity}\u0000${text}`;
  let clauses = cache.get(key);
  if (!clauses) {
    clauses = readNow(text, polarity);
    // Bounded: descriptors repeat, but Shows lines carry counts that vary from answer to answer.
    if (cache.size >= 4096) cache.clear();
    cache.set(key, clauses);
  }
  return clauses;
}

function readNow(text: string, polarity: Polarity): Clause[] {
  const plain = text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/\([^()]*\)/g, ' ');
  const out: Clause[] = [];
  for (const fragment of plain.split(/[.;:!?]+(?=\s|$)/)) {
    const found = phrasesIn(fragment).map((f) => ({ ...f, claims: claimsOf(f, fragment, polarity) }));
    let chain: Claim[] = [];
    let or = false;
    const close = () => {
      if (or && polarity === 'states' && chain.length > 1) out.push(chain);
      else for (const c of chain) out.push([c]);
      chain = [];
      or = false;
    };
    found.forEach((f, i) => {
      if (f.claims.length === 0) {
        close();
        return;
      }
      const join = i > 0 && found[i - 1].claims.length > 0 ? linked(fragment.slice(found[i - 1].end, f.start)) : { link: false, or: false };
      if (!join.link) close();
      or ||= join.or;
      chain.push(...f.claims);
    });
    close();
  }
  return out;
}

function claimsOf(f: Found, fragment: string, polarity: Polarity): Claim[] {
  const claims = f.meanings.filter((m) => m.near === undefined || SUBJECTS.get(m.near)!.test(fragment)).flatMap((m) => m.claims);
  if (polarity === 'states') return claims;
  return claims.filter((c) => c.holds).map((c) => ({ feature: c.feature, holds: false }));
}

// ---------- implication ----------

const IMPLIES = new Map(FEATURES.map((f) => [f.id, f.implies ?? []]));

function reach(from: FeatureId, next: (f: FeatureId) => FeatureId[]): FeatureId[] {
  const seen = new Set([from]);
  const todo = [from];
  while (todo.length > 0) {
    for (const g of next(todo.pop()!)) {
      if (seen.has(g)) continue;
      seen.add(g);
      todo.push(g);
    }
  }
  return [...seen];
}
const IMPLIED_BY = new Map<FeatureId, FeatureId[]>();
for (const [f, gs] of IMPLIES) for (const g of gs) IMPLIED_BY.set(g, [...(IMPLIED_BY.get(g) ?? []), f]);

/** Having `feature` means having these (itself included). */
export const implied = (feature: FeatureId) => reach(feature, (f) => IMPLIES.get(f) ?? []);
/** Lacking `feature` means lacking these (itself included). */
const implying = (feature: FeatureId) => reach(feature, (f) => IMPLIED_BY.get(f) ?? []);

/** What is known of an answer's features: true, false, or absent when the grader does not measure it. */
export type Facts = ReadonlyMap<FeatureId, boolean>;

/** Facts closed under implication; where measurements disagree, having a feature wins. */
export function closeFacts(measured: Iterable<[FeatureId, boolean]>): Facts {
  const out = new Map<FeatureId, boolean>();
  const entries = [...measured];
  for (const [f, v] of entries) if (v) for (const g of implied(f)) out.set(g, true);
  for (const [f, v] of entries) if (!v) for (const g of implying(f)) if (!out.has(g)) out.set(g, false);
  return out;
}

/** Whether a clause is contradicted: every claim in it goes against what is known. */
export function contradicted(clause: Clause, facts: Facts): boolean {
  return clause.every((c) => facts.has(c.feature) && facts.get(c.feature) !== c.holds);
}

/**
 * Where claims disagree among themselves: a feature both asserted and denied (with implication:
 * "rebutted" asserts that an opposing view is there, "no real counter-argument" denies it), or a
 * clause of several claims all of which the single claims deny. Empty when they agree.
 */
export function disagreements(clauses: Clause[]): string[] {
  const yes = new Set<FeatureId>();
  const no = new Set<FeatureId>();
  for (const c of clauses) {
    if (c.length !== 1) continue;
    for (const f of c[0].holds ? implied(c[0].feature) : implying(c[0].feature)) (c[0].holds ? yes : no).add(f);
  }
  const out = [...yes].filter((f) => no.has(f)).map((f) => `${f} is both asserted and denied`);
  for (const c of clauses) {
    if (c.length > 1 && c.every((x) => (x.holds ? no : yes).has(x.feature)))
      out.push(`none of ${c.map((x) => `${x.holds ? '' : 'no '}${x.feature}`).join(' / ')} can hold`);
  }
  return out;
}
