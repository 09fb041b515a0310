// Feedback written from a judgement (judgement.ts), by templates over its record and nothing
// else. The three styles carry the same judgement (score, level, what it shows and lacks, the
// quotation, the next step) in different forms: Bullet as a list, Short as two sentences, Long as
// a paragraph that also says how the sandbox marks.
import type { Caveat, Judgement, Point } from './judgement.js';
import type { Level } from './levels.js';
import { advice, lacks, lengthAsked, list, shownBy, shows, wordsAsked } from './phrases.js';

export type FeedbackStyle = 'Bullet' | 'Short' | 'Long';

export const fmt = (n: number) => String(Number(n.toFixed(2)));
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const stop = (s: string) => (/[.!?…]["”’)]*$/.test(s) ? s : `${s}.`);
function shorten(s: string, n: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1).trimEnd()}…` : flat;
}

/** "level 4 (“Clear position…”)", or one of the sandbox's own levels for a rubric without descriptors. */
function levelName(l: Level, max: number, quoteIt = true, length = 160): string {
  if (l.generic) return `the sandbox’s level that ${l.descriptor} (${fmt(l.score)} of ${fmt(max)})`;
  return quoteIt ? `level ${fmt(l.score)} (“${shorten(l.descriptor, length).replace(/[.;]+$/, '')}”)` : `level ${fmt(l.score)}`;
}

/**
 * Where the score stands: at a level's points, nearest them, or halfway between two levels. The
 * level's descriptor is quoted only when nothing measured goes against it; otherwise that is said.
 */
function standingText(j: Judgement, length = 160): string {
  const { level, exact, between } = j.standing;
  const named = levelName(level, j.max, j.descriptorHolds, length);
  const where = exact ? `at ${named}` : between ? `halfway between ${named} and ${levelName(between, j.max, false)}` : `nearest ${named}`;
  return j.descriptorHolds ? where : `${where} (its descriptor is not quoted: part of it goes against what was measured)`;
}

export function caveatText(c: Caveat): string {
  switch (c.kind) {
    case 'copied':
      return `Most of the answer copies the question (“${c.quote}”), which earns no credit.`;
    case 'off_topic': {
      const missing = c.missing.map((t) => `“${t}”`);
      const named = missing.length === 0 ? '' : ` (it never mentions ${list(missing, 'or')})`;
      return `The answer uses few of the question’s key terms${named}, so it is marked as largely off the topic.`;
    }
    case 'not_story':
      return `The answer is ${c.partly ? 'only partly' : 'not'} told as a story, which the task asks for, so it is marked as largely off the task.`;
    case 'short':
      return `At ${c.words} ${c.words === 1 ? 'word' : 'words'}, where ${lengthAsked(c)}, the answer is too short to meet the criterion fully.`;
  }
}

/** The caveat as a clause, for the Short style's first sentence. */
function caveatClause(c: Caveat): string {
  switch (c.kind) {
    case 'copied':
      return 'held down as most of it copies the question';
    case 'off_topic':
      return 'held down as largely off the topic';
    case 'not_story':
      return 'held down as not told as a story';
    case 'short':
      return `held down as too short (${c.words} ${c.words === 1 ? 'word' : 'words'}, where ${c.low} to ${c.high} ${c.stated ? 'are asked for' : 'is usual'})`;
  }
}

/** What to do about an answer held down as a whole (off the topic, not a story, copied), before anything else. */
export function caveatAdvice(c: Caveat): string | undefined {
  switch (c.kind) {
    case 'copied':
      return 'answer the question in your own words; copying it earns no credit';
    case 'off_topic':
      return c.missing.length > 0
        ? `answer the question that was set, about ${list(c.missing.map((t) => `“${t}”`))}`
        : 'answer the question that was set, in its own terms';
    case 'not_story':
      return 'tell the answer as a story, as the task asks: a character, a problem, and events that lead to a change';
    case 'short':
      return undefined;
  }
}

/** The next step towards the next level: what would lift the whole answer, else the biggest gap's advice; with every point met, what is left to a teacher. */
function stepText(j: Judgement, quoteNext = true): string {
  const towards = j.standing.next ? `towards ${levelName(j.standing.next, j.max, quoteNext)}` : 'at the top level';
  const first = j.caveat ? caveatAdvice(j.caveat) : undefined;
  if (first) return `${towards}: ${first}`;
  // held down as too short, with nothing else to mend: the length is the step
  if (!j.step && j.caveat?.kind === 'short')
    return `${towards}: develop the answer to the ${wordsAsked(j.caveat)} (it has ${j.caveat.words})`;
  if (!j.step) return `${towards}: every point this grader measures is met; what is left (how well each is done) is for a teacher to judge`;
  return `${towards}: ${advice(j.step.measured)}`;
}

const line = (p: Point) => shows(p.measured);
const gapLine = (p: Point) => lacks(p.measured);

/** What the quotation is offered for: the gap it shows (a slip, a repeat), or what it shows of a point, and no more. */
function offeredFor(j: Judgement): string {
  const quote = j.quote!;
  const point = (quote.problem ? j.lacks : j.shows).find((p) => p.id === quote.point)!;
  return quote.problem ? `lacks ${gapLine(point)}` : `shows ${shownBy(point.measured, quote.part)}`;
}

/** The quotation and what it proves. */
function proof(j: Judgement): string {
  return j.quote ? `“${j.quote.text}” (${offeredFor(j)})` : '';
}

/** What there was to mark, when nothing could be: no text, the question copied, or words this grader cannot read. */
function emptyText(j: Judgement): { what: string; next: string } {
  const copied = j.empty?.copied;
  const foreign = j.empty?.notEnglish;
  if (foreign)
    return {
      what: `The answer does not read as English: ${foreign.foreign} of its ${foreign.words} words are neither English words nor one slip from one (such as ${list(
        foreign.examples.map((w) => `“${w}”`),
      )}), and this grader measures English only, so it gives no credit.`,
      next: 'have a teacher who reads its language mark it, or submit the answer in English',
    };
  if (copied)
    return {
      what: `The answer only copies the question (“${copied}”), which earns no credit.`,
      next: 'answer the question in your own words; copying it earns no credit',
    };
  // words, but no sentence: a heading, a greeting or a sign-off alone is not "no text"
  if (j.empty && j.empty.words > 0)
    return {
      what: `The answer has no sentence to mark, only a heading, greeting or sign-off (${j.empty.words} ${j.empty.words === 1 ? 'word' : 'words'}), so nothing could be credited.`,
      next: 'write the answer in sentences of your own under its heading',
    };
  return {
    what: 'No answer text was given, so nothing could be credited.',
    next: 'submit the answer as text or as a readable file to have it marked',
  };
}

function emptyFeedback(j: Judgement, style: FeedbackStyle): string {
  const { what, next } = emptyText(j);
  if (style === 'Bullet')
    return [`- ${fmt(j.score)}/${fmt(j.max)} for “${j.item}” (sandbox grader).`, `- ${what}`, `- Next step: ${capital(next)}.`].join('\n');
  if (style === 'Short')
    return `${fmt(j.score)}/${fmt(j.max)} for “${j.item}”: ${what.charAt(0).toLowerCase()}${what.slice(1)} ${capital(next)}.`;
  return `“${j.item}” scores ${fmt(j.score)} of ${fmt(j.max)} (sandbox grader). ${what} ${capital(next)}.`;
}

/** Shows, named as not credited when the whole answer was held down as off the topic or the task. */
function showsLabel(j: Judgement): string {
  return j.caveat?.kind === 'off_topic' || j.caveat?.kind === 'not_story' ? 'Shows (held down with the rest of the answer)' : 'Shows';
}

export function feedback(j: Judgement, style: FeedbackStyle): string {
  if (j.empty) return emptyFeedback(j, style);
  const prior = j.prior
    ? `Earlier feedback (${fmt(j.prior.score)}/${fmt(j.max)}: “${shorten(j.prior.comment, 100)}”) was taken into account.`
    : '';
  const caveat = j.caveat ? caveatText(j.caveat) : '';

  if (style === 'Bullet') {
    return [
      `- ${fmt(j.score)}/${fmt(j.max)} for “${j.item}” (sandbox grader): ${standingText(j)}.`,
      caveat ? `- ${caveat}` : '',
      j.shows.length > 0 ? `- ${showsLabel(j)}: ${j.shows.map(line).join('; ')}.` : '',
      j.lacks.length > 0 ? `- Lacks: ${j.lacks.map(gapLine).join('; ')}.` : '',
      j.quote ? `- From the answer: ${proof(j)}.` : '',
      `- Next step, ${stepText(j)}.`,
      prior ? `- ${prior}` : '',
    ]
      .filter(Boolean)
      .join('\n');
  }

  if (style === 'Short') {
    // The quotation sits beside the point it proves.
    const strength = j.shows[0];
    const weakness = j.lacks[0];
    // beside its line only when it shows all the line says; else it is offered for what it shows, apart
    const beside = (p: Point | undefined, problem: boolean) =>
      j.quote &&
      p &&
      j.quote.point === p.id &&
      j.quote.problem === problem &&
      offeredFor(j) === `${problem ? 'lacks' : 'shows'} ${(problem ? gapLine : line)(p)}`
        ? ` (“${j.quote.text}”)`
        : '';
    const said = [
      strength ? `it shows ${line(strength)}${beside(strength, false)}` : '',
      weakness ? `it lacks ${gapLine(weakness)}${beside(weakness, true)}` : '',
    ]
      .filter(Boolean)
      .join(', but ');
    const elsewhere = j.quote && !beside(strength, false) && !beside(weakness, true) ? ` (from the answer: ${proof(j)})` : '';
    const held = j.caveat ? `, ${caveatClause(j.caveat)}` : '';
    return `${fmt(j.score)}/${fmt(j.max)} (sandbox grader), ${standingText(j, 80)}${held}${said ? `: ${said}` : ''}${elsewhere}. Next, ${stop(stepText(j, false))}${prior ? ` ${prior}` : ''}`;
  }

  return [
    `“${j.item}” scores ${fmt(j.score)} of ${fmt(j.max)}, ${standingText(j)}.`,
    caveat,
    j.shows.length > 0 ? `The answer shows ${list(j.shows.map(line))}.` : '',
    j.lacks.length > 0 ? `It lacks ${list(j.lacks.map(gapLine))}.` : '',
    j.quote ? `From the answer: ${proof(j)}.` : '',
    `The next step, ${stop(stepText(j))}`,
    prior,
    '(Sandbox grader: it measures features of the writing against the rubric’s wording; it does not judge the reasoning itself, and it leaves the top tenth of each criterion to a teacher.)',
  ]
    .filter(Boolean)
    .join(' ');
}
