// POST /feedback-rewrite (spec 4.13) in the sandbox: a deterministic rewrite that really changes the
// form of the feedback and never adds content it cannot stand behind. Each style is what it says:
// `paragraph` is prose (labelled lines such as "Shows: a; b" become sentences, "The answer shows a
// and b."), `short_sentences` short sentences, `bullet_points` one "- " line per point.
//
// A finding is never split, merged with another or cut short: a quotation of the answer stays with
// the finding it was offered for ("“…”, which shows X"), whole, in every style and instruction.
//
// Instructions it understands (case-insensitive words anywhere in `instruction`; others are ignored):
//  - "encouraging", "positive", "supportive", "kind", "friendly", "motivating": opens with an
//    encouraging sentence that fits the score, and softens "lacks" / "does not" / "Lacks:".
//  - "concise", "brief", "shorter", "succinct": keeps the first point, the first gap named and the
//    advice, and drops asides in parentheses.
//  - "student", "second person", "you", "directly": speaks to the student ("your answer").
//  - "include / show / start with ... score" (or "mark"): opens with the score, e.g. "Score: 4/5.",
//    unless the feedback already states it.

import { protect, withoutAsides } from './rewrite-spans.js';

export interface RewriteSectionIn {
  item: string;
  comment: string;
  score: number;
  max_score: number;
}
export interface RewriteSectionOut extends RewriteSectionIn {
  rewritten: boolean;
}
export type RewriteStyle = 'bullet_points' | 'paragraph' | 'short_sentences';

const SHORT_SENTENCE_WORDS = 12;

interface Wishes {
  encouraging: boolean;
  concise: boolean;
  secondPerson: boolean;
  score: boolean;
}

function readInstruction(instruction: string | undefined): Wishes {
  const t = (instruction ?? '').toLowerCase();
  return {
    encouraging: /\b(?:encourag\w*|positive\w*|supportive|kind(?:er|ly)?|friendly|motivat\w*|warm\w*)\b/.test(t),
    concise: /\b(?:concise\w*|brief\w*|short(?:er|en)?|succinct\w*|trim)\b/.test(t),
    secondPerson: /\b(?:student|second[- ]person|you|directly)\b/.test(t),
    score: /\b(?:include|show|add|give|state|mention|with|start with|lead with)\b[^.;]*\b(?:score|mark)s?\b/.test(t),
  };
}

const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
// "… (“…judged.”)" is not ended: the full stop is the quotation's
const endSentence = (s: string) => (/[.!?…]["”’]*$|[.!?…]\)$/.test(s) ? s : `${s.replace(/[,;:]+$/, '')}.`);
const stripEnd = (s: string) => s.replace(/[.!?]+$/, '');
const fmt = (n: number) => String(Number(n.toFixed(2)));

/** Sentences and bullet points of a comment, without bullet markers. */
function units(comment: string): string[] {
  const out: string[] = [];
  for (const raw of comment.split(/\r?\n/)) {
    const line = raw.replace(/^\s*(?:[-*•·]|\d{1,2}[.)])\s+/, '').trim();
    if (!line) continue;
    const { text, restore } = protect(line);
    // After . ! ? when a capital, quote or bracket follows: not inside "e.g. x" or "4.5".
    for (const s of text.split(/(?<=[.!?])\s+(?=[\u0001\u0003"“(]?[A-Z\u0001\u0003])/)) if (s.trim()) out.push(restore(s.trim()));
  }
  return out;
}

// Clause breaks, tried in order; `lead` starts the second part as a sentence of its own.
const CLAUSE_BREAKS: { re: RegExp; lead: string }[] = [
  { re: /;\s+/, lead: '' },
  { re: /,\s+but\s+/i, lead: 'But ' },
  { re: /,\s+however,?\s+/i, lead: 'However, ' },
  { re: /,?\s+because\s+/i, lead: 'This is because ' },
  { re: /,\s+so\s+/i, lead: 'So ' },
  { re: /,\s+which\s+/i, lead: 'This ' },
  { re: /,\s+and\s+/i, lead: '' },
  // not before a quotation: "from the answer: “…”" is one clause
  { re: /:\s+(?!\u0001)/, lead: '' },
];

/** A sentence of findings ("The answer shows a, b and c"): its commas part findings, or are inside one. */
const FINDINGS = /^(?:the answer|your answer|it)(?: also)? (?:shows|lacks|could (?:still|also) add)\b/i;

/** Splits protected text at the first clause break that leaves two real clauses. */
function splitClauses(text: string): string[] {
  if (wordCount(text) <= SHORT_SENTENCE_WORDS) return [text];
  for (const { re, lead } of CLAUSE_BREAKS) {
    const m = re.exec(text);
    if (!m || m.index === 0) continue;
    const head = text.slice(0, m.index);
    const tail = text.slice(m.index + m[0].length);
    if (wordCount(head) < 3 || wordCount(tail) < 3) continue;
    return [...splitClauses(head), ...splitClauses(lead ? lead + tail : capital(tail))];
  }
  // a finding is not cut at a comma nor evenly: "a position, stated after … (“…”)", "accurate spelling, punctuation and grammar"
  if (text.includes('\u0001') || FINDINGS.test(text)) return [text];
  const commaParts = text.split(/,\s+/);
  if (commaParts.length > 1 && commaParts.every((p) => wordCount(p) >= 3)) return commaParts.flatMap((p) => splitClauses(capital(p)));
  // Cut evenly only when nothing else worked and the sentence is far over the limit.
  const words = text.split(/\s+/);
  if (words.length <= SHORT_SENTENCE_WORDS * 1.5) return [text];
  const size = Math.ceil(words.length / Math.ceil(words.length / SHORT_SENTENCE_WORDS));
  const out: string[] = [];
  for (let i = 0; i < words.length; i += size) out.push(words.slice(i, i + size).join(' '));
  return out;
}

/** A clause, and its long asides as sentences of their own right after it (a quotation in brackets, such as a level descriptor, stays). */
function withAsides(clause: string): string[] {
  const { text, restore, saved } = protect(clause);
  const long: string[] = [];
  const main = text.replace(/\s*\u0003(\d+)\u0002/g, (m, i: string) => {
    const inner = saved[Number(i)].slice(1, -1);
    // kept: a short aside, a quotation in brackets (a level descriptor), and what a quotation proves ("(shows …)")
    if (wordCount(inner) <= 4 || /^“.*”$/.test(inner.trim()) || /^(?:shows|lacks) /.test(inner)) return m;
    long.push(inner);
    return '';
  });
  const own = restore(main).trim();
  return [...(own ? [endSentence(capital(stripEnd(own)))] : []), ...long.flatMap((a) => shortSentences(a))];
}

/** Sentences of about 12 words at most, each clause followed by its long asides; a whole finding is one sentence. */
function shortSentences(unit: string, whole = false): string[] {
  const { text, restore } = protect(stripEnd(unit.trim()));
  return (whole ? [text] : splitClauses(text)).flatMap((c) => withAsides(restore(c.trim())));
}

/** Clauses of a sentence, for one bullet each: split at semicolons and at ", but" / ", however". */
function clauses(unit: string): string[] {
  const { text, restore } = protect(unit);
  return text
    .split(/;\s+|,\s+(?=but\s|however\s)/i)
    .map((c) => capital(stripEnd(restore(c.trim()))))
    .filter(Boolean);
}

function secondPerson(unit: string): string {
  // Quotations are the student's own words: "the student council" stays as it is.
  const { text, restore } = protect(unit, true);
  return restore(addressed(text));
}

function addressed(s: string): string {
  return s
    .replace(/\bthe (?:student|writer|candidate)['’]s\b/gi, (m) => (m[0] === 'T' ? 'Your' : 'your'))
    .replace(/\bthe (?:student|writer|candidate)\b/gi, (m) => (m[0] === 'T' ? 'You' : 'you'))
    .replace(
      /\b(the|this) (answer|essay|response|work|writing)\b/gi,
      (_m, det: string, noun: string) => `${det[0] === det[0].toUpperCase() ? 'Your' : 'your'} ${noun}`,
    )
    .replace(
      /\bYou (has|is|does|lacks|uses|mentions)\b/g,
      (_m, v: string) =>
        `You ${({ has: 'have', is: 'are', does: 'do', lacks: 'lack', uses: 'use', mentions: 'mention' } as Record<string, string>)[v]}`,
    );
}

/** What the answer lacks, put as what it could add; asides and quotations are left as they are ("it does not judge the reasoning" is the grader's). */
function soften(unit: string): string {
  const { text, restore } = protect(unit);
  return restore(softened(text));
}

function softened(s: string): string {
  return s
    .replace(/\bIt also lacks\b/g, 'It could also add')
    .replace(/\bIt lacks\b/g, 'It could still add')
    .replace(/\blacks\b/g, 'could still add')
    .replace(/\b(?:does not|doesn['’]t)\b/g, 'could also')
    .replace(/^(?:Missing|Lacks):/, 'Still to add:');
}

function opening(score: number, max: number): string {
  const ratio = max > 0 ? score / max : 0;
  if (ratio >= 0.8) return 'Well done: this is a strong part of the answer.';
  if (ratio >= 0.5) return 'Good work so far: this part is on the right track.';
  return 'This is a starting point, and there is a clear way to improve it.';
}

const GAP = /\b(?:lacks?|missing|does not|doesn['’]t|could still|not yet)\b/i;
const ADVICE = /\b(?:improve|next step|to gain|try|should|could|consider|add|develop)\b/i;

/** Lines that carry a label ("Shows: a; b"), and how each reads as prose. */
const LABELS: { re: RegExp; kind: 'shows' | 'lacks' | 'next' | 'example' | 'score' }[] = [
  { re: /^(?:shows|strengths?|what works(?: well)?)$/i, kind: 'shows' },
  { re: /^(?:lacks|missing|weakness(?:es)?|gaps?|still to add|to work on)$/i, kind: 'lacks' },
  { re: /^(?:next steps?|to improve|advice)$/i, kind: 'next' },
  { re: /^(?:from the answer|example|evidence from the answer|quotation)$/i, kind: 'example' },
  { re: /^score$/i, kind: 'score' },
];

/** Words that start a finding in lower case inside a sentence ("Clear paragraphs" → "shows clear paragraphs"); a name keeps its capital. */
const COMMON_START = new Set(
  'a an the some few many more most several enough each every no clear good strong weak little limited accurate precise varied specific relevant well'.split(
    ' ',
  ),
);
const lowerStart = (x: string) =>
  x.replace(/^([A-Z])([a-z]+)\b/, (w, first: string, rest: string) => (COMMON_START.has(w.toLowerCase()) ? first.toLowerCase() + rest : w));

/** "a; b; c" as "a, b and c"; items that hold commas or "and" themselves keep their semicolons ("a, x; b; and c"). */
function joinItems(items: string[]): string {
  if (items.length <= 1) return items.join('');
  const compound = items.some((x) => /,|\band\b/.test(protect(x).text));
  return compound
    ? `${items.slice(0, -1).join('; ')}; and ${items[items.length - 1]}`
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A quotation with what it proves in brackets ("“…” (shows a)"), as a clause: "“…”, which shows a". */
function proofClause(content: string): string {
  return content
    .replace(/\s*\(shows ([^()]+(?:\([^()]*\)[^()]*)*)\)$/, ', which shows $1')
    .replace(/\s*\(lacks ([^()]+(?:\([^()]*\)[^()]*)*)\)$/, ', which shows what it lacks: $1');
}

/** A part of the rewrite: a finding (`whole`: never split, merged or cut), a quotation with what it proves (`proof`), or free text. */
interface Part {
  text: string;
  whole?: boolean;
  proof?: boolean;
}

/**
 * A unit in the words of a style: a labelled line becomes sentences for prose (`paragraph`,
 * `short_sentences`: one finding a sentence), or one labelled point per finding for bullets.
 * Units without a label are left as they are.
 */
function unlabel(unit: string, style: RewriteStyle): Part[] {
  const { text, restore } = protect(unit);
  // "Shows (held down with the rest of the answer): a; b" is labelled too
  const m = /^([A-Za-z][A-Za-z ]{1,30}?)(\s*\u0003\d+\u0002)?:\s+(.+)$/.exec(text);
  const label = m ? LABELS.find((l) => l.re.test(m[1].trim())) : undefined;
  if (!m || !label) return [{ text: unit }];
  const aside = m[2] ? ` ${restore(m[2].trim())}` : '';
  const items = m[3]
    .split(/;\s+/)
    .map((x) => stripEnd(restore(x.trim())))
    .filter(Boolean);
  if (style === 'bullet_points') return items.map((x) => ({ text: `${capital(m[1].trim())}${aside}: ${x}`, whole: true }));
  if (label.kind === 'shows' || label.kind === 'lacks') {
    // In a sentence, a finding's detail goes in brackets: "development (only 385 words…)".
    for (let i = 0; i < items.length; i++) {
      const { text: t, restore: r } = protect(lowerStart(items[i]));
      items[i] = r(
        t.replace(/^([^:]+):\s+(.+)$/, (_m, head: string, detail: string) =>
          /\(/.test(detail) ? `${head}, ${detail}` : `${head} (${detail})`,
        ),
      );
    }
  }
  // Short sentences: one finding a sentence, each whole ("an opening … and a conclusion …" is one finding).
  const each = style === 'short_sentences';
  const said = (lead: string, more: string) =>
    (each ? items.map((x, i) => `${i === 0 ? lead : more} ${x}${i === 0 ? aside : ''}.`) : [`${lead} ${joinItems(items)}${aside}.`]).map(
      (x) => ({ text: x, whole: true }),
    );
  switch (label.kind) {
    case 'shows':
      return said('The answer shows', 'It also shows');
    case 'lacks':
      return said('It lacks', 'It also lacks');
    case 'next':
      return [{ text: `Next, ${items.join('; ')}.` }];
    case 'example':
      return [{ text: `For instance, the answer says ${proofClause(items.join('; '))}.`, whole: true, proof: true }];
    case 'score':
      return [{ text: `The score is ${items.join('; ')}.` }];
  }
}

/** A quotation and what it proves as short sentences: "… says “…”." then "This shows …", never apart. */
function proofSentences(text: string): string[] {
  const { text: t, restore } = protect(stripEnd(text.trim()));
  const at = /,\s+which shows\s+/.exec(t);
  if (!at) return shortSentences(text, true);
  return [
    ...shortSentences(restore(t.slice(0, at.index)), true),
    ...shortSentences(`This shows ${restore(t.slice(at.index + at[0].length))}`, true),
  ];
}

/** Whether a pattern is in a text outside its quotations (the student's words are not the feedback's). */
const says = (re: RegExp, text: string) => re.test(protect(text, true).text);

function rewriteOne(s: RewriteSectionIn, style: RewriteStyle, wishes: Wishes): string {
  let parts = units(s.comment).flatMap((u) => unlabel(u, style));
  if (parts.length === 0) return '';
  if (wishes.concise) {
    // whole parts or none: a finding is never cut short, nor a quotation kept without its finding
    const gap = parts.slice(1).find((p) => says(GAP, p.text));
    const rest = parts.slice(1).filter((p) => p !== gap);
    const advice = rest.find((p) => /^(?:to improve|next step|next,)/i.test(p.text)) ?? rest.find((p) => says(ADVICE, p.text));
    parts = [parts[0], gap, advice].filter((p): p is Part => p !== undefined).map((p) => ({ ...p, text: withoutAsides(p.text) }));
  }
  const each = (f: (x: string) => string) => (p: Part) => ({ ...p, text: f(p.text) });
  if (wishes.secondPerson) parts = parts.map(each(secondPerson));
  if (wishes.encouraging) parts = [{ text: opening(s.score, s.max_score) }, ...parts.map(each(soften))];
  const shown = new RegExp(`\\b${fmt(s.score)}(?:/| of )${fmt(s.max_score)}\\b`);
  if (wishes.score && !parts.some((p) => says(shown, p.text))) parts = [{ text: `Score: ${fmt(s.score)}/${fmt(s.max_score)}.` }, ...parts];

  switch (style) {
    case 'bullet_points':
      return parts
        .flatMap((p) => (p.whole ? [capital(stripEnd(p.text))] : clauses(p.text)))
        .map((c) => `- ${c}`)
        .join('\n');
    case 'short_sentences':
      return parts.flatMap((p) => (p.proof ? proofSentences(p.text) : shortSentences(p.text, p.whole))).join(' ');
    case 'paragraph':
      return parts.map((p) => endSentence(capital(p.text))).join(' ');
  }
}

/**
 * Feedback put in the form of a style and nothing else (no instruction): what the language-model
 * engine's reply goes through, so both paths give the same form for the same style.
 */
export function conform(comment: string, style: RewriteStyle): string {
  return rewriteOne({ item: '', comment, score: 0, max_score: 0 }, style, {
    encouraging: false,
    concise: false,
    secondPerson: false,
    score: false,
  });
}

/**
 * Rewrites feedback sections in another style. With `target_item`, only the section of that
 * criterion (matched ignoring case) is rewritten; the others come back unchanged with
 * `rewritten: false`.
 */
export function rewrite(input: { style: RewriteStyle; instruction?: string; target_item?: string; sections: RewriteSectionIn[] }): {
  sections: RewriteSectionOut[];
} {
  const wishes = readInstruction(input.instruction);
  const target = input.target_item?.trim().toLowerCase();
  return {
    sections: input.sections.map((s) => {
      const section = { item: s.item, comment: s.comment, score: s.score, max_score: s.max_score };
      if (target !== undefined && s.item.trim().toLowerCase() !== target) return { ...section, rewritten: false };
      return { ...section, comment: rewriteOne(s, input.style, wishes), rewritten: true };
    }),
  };
}
