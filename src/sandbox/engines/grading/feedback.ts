// Feedback written from a verdict (assess.ts). The three styles carry the same verdict (score,
// level reached, next level, evidence quoted from the answer, next step) in different forms:
// Bullet as a list, Short as two sentences, Long as a paragraph that also says how the sandbox marks.
import type { Level, Verdict } from './assess.js';

export type FeedbackStyle = 'Bullet' | 'Short' | 'Long';

const fmt = (n: number) => String(Number(n.toFixed(2)));
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const stop = (s: string) => (/[.!?…]["”’)]*$/.test(s) ? s : `${s}.`);
function list(xs: string[], joiner = 'and'): string {
  return xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} ${joiner} ${xs[xs.length - 1]}`;
}
function shorten(s: string, n: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1).trimEnd()}…` : flat;
}

/** "level 4 (“Clear position…”)", or a band of the sandbox's own for a rubric without descriptors. */
function levelName(l: Level, max: number): string {
  if (l.generic) return `the band that ${l.descriptor} (${fmt(l.score)} of ${fmt(max)})`;
  return `level ${fmt(l.score)} (“${shorten(l.descriptor, 160).replace(/[.;]+$/, '')}”)`;
}

function nextStep(v: Verdict): string {
  if (!v.next) return `to stay at the top level, ${v.advice}`;
  return `towards ${levelName(v.next, v.max)}, ${v.advice}`;
}

function emptyFeedback(v: Verdict, style: FeedbackStyle): string {
  const what = v.caveat ?? 'No answer text was given, so nothing could be credited.';
  if (style === 'Bullet') return [`- ${fmt(v.score)}/${fmt(v.max)} for “${v.item}” (sandbox grader).`, `- ${what}`, `- Next step: ${capital(v.advice)}.`].join('\n');
  if (style === 'Short') return `${fmt(v.score)}/${fmt(v.max)} for “${v.item}”: ${what.charAt(0).toLowerCase()}${what.slice(1)} ${capital(v.advice)}.`;
  return `“${v.item}” scores ${fmt(v.score)} of ${fmt(v.max)} (sandbox grader). ${what} ${capital(v.advice)}.`;
}

export function feedback(v: Verdict, style: FeedbackStyle): string {
  if (!v.result) return emptyFeedback(v, style);
  const reached = levelName(v.level, v.max);
  const prior = v.prior ? `Earlier feedback (${fmt(v.prior.score)}/${fmt(v.max)}: “${shorten(v.prior.comment, 100)}”) was taken into account.` : '';
  const quote = v.quote ? `“${v.quote.text}”` : '';

  if (style === 'Bullet') {
    return [
      `- ${fmt(v.score)}/${fmt(v.max)} for “${v.item}” (sandbox grader): reaches ${reached}.`,
      v.caveat ? `- ${v.caveat}` : '',
      v.strengths.length > 0 ? `- Shows: ${v.strengths.map((s) => s.text).join('; ')}.` : '',
      v.gaps.length > 0 ? `- Lacks: ${v.gaps.map((g) => g.text).join('; ')}.` : '',
      v.quote ? `- From the answer: ${quote} (${v.quote.shows}).` : '',
      `- Next step, ${nextStep(v)}.`,
      prior ? `- ${prior}` : '',
    ].filter(Boolean).join('\n');
  }

  if (style === 'Short') {
    // The quotation sits beside the finding it illustrates.
    const strength = v.strengths[0];
    const gap = v.gaps[0];
    const by = (text: string | undefined) => (v.quote && text === v.quote.shows ? ` (${quote})` : '');
    const shows = strength ? `it shows ${strength.text}${by(strength.text)}` : 'it shows little of what the criterion asks';
    const lacks = gap ? `, but lacks ${gap.text}${by(gap.text)}` : '';
    const elsewhere = v.quote && v.quote.shows !== strength?.text && v.quote.shows !== gap?.text ? ` (from the answer: ${quote})` : '';
    return `${fmt(v.score)}/${fmt(v.max)} (sandbox grader), reaching ${reached}: ${shows}${lacks}${elsewhere}. Next, ${stop(nextStep(v))}${prior ? ` ${prior}` : ''}`;
  }

  return [
    `“${v.item}” scores ${fmt(v.score)} of ${fmt(v.max)}, which reaches ${reached}.`,
    v.caveat ?? '',
    v.strengths.length > 0 ? `The answer shows ${list(v.strengths.map((s) => s.text))}.` : 'The answer shows little of what this criterion asks for.',
    v.quote ? `For example: ${quote}, which shows ${v.quote.shows.charAt(0).toLowerCase()}${v.quote.shows.slice(1)}.` : '',
    v.gaps.length > 0 ? `It lacks ${list(v.gaps.map((g) => g.text))}.` : 'Nothing this grader measures is missing.',
    `The next step, ${stop(nextStep(v))}`,
    prior,
    '(Sandbox grader: it measures the answer against the rubric’s wording and features of the writing, such as paragraphs, support, explanation and accuracy; it does not judge the reasoning itself, and it leaves the top tenth of each criterion to a teacher.)',
  ].filter(Boolean).join(' ');
}
