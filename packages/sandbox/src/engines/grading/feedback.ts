// Feedback written from a verdict (assess.ts). The three styles carry the same verdict (score,
// level reached, next level, evidence quoted from the answer, next step) in different forms:
// Bullet as a list, Short as two sentences, Long as a paragraph that also says how the sandbox marks.
// They add no claim of their own: every claim about the answer is one the verdict kept.
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

/**
 * How the score relates to its level: it reaches a level whose descriptor fits the answer. A
 * descriptor that does not fit is not quoted, since it would say something untrue of the answer:
 * the level is the closest when none fits, or where the topic gate held the score.
 */
function reachedLevel(v: Verdict, verb: 'reaches' | 'reaching'): string {
  const is = verb === 'reaches' ? 'is' : 'being';
  if (v.fit === 'held') return `${is} held at level ${fmt(v.level.score)} as off the topic`;
  if (v.fit === 'nearest') return `${is} closest to level ${fmt(v.level.score)}, though no level’s descriptor fits this answer exactly`;
  return `${verb} ${levelName(v.level, v.max)}`;
}

function nextStep(v: Verdict): string {
  if (!v.next) return `to stay at the top level, ${v.advice}`;
  return `towards ${levelName(v.next, v.max)}, ${v.advice}`;
}

function emptyFeedback(v: Verdict, style: FeedbackStyle): string {
  const what = v.caveat ?? 'No answer text was given, so nothing could be credited.';
  if (style === 'Bullet')
    return [`- ${fmt(v.score)}/${fmt(v.max)} for “${v.item}” (sandbox grader).`, `- ${what}`, `- Next step: ${capital(v.advice)}.`].join(
      '\n',
    );
  if (style === 'Short')
    return `${fmt(v.score)}/${fmt(v.max)} for “${v.item}”: ${what.charAt(0).toLowerCase()}${what.slice(1)} ${capital(v.advice)}.`;
  return `“${v.item}” scores ${fmt(v.score)} of ${fmt(v.max)} (sandbox grader). ${what} ${capital(v.advice)}.`;
}

/** The quotation and what it proves: a strength it shows, or a gap it shows (a slip, a repeat). */
function proof(v: Verdict): string {
  if (!v.quote) return '';
  return `“${v.quote.text}” (${v.quote.problem ? 'lacks' : 'shows'} ${v.quote.finding})`;
}

export function feedback(v: Verdict, style: FeedbackStyle): string {
  if (!v.result) return emptyFeedback(v, style);
  const prior = v.prior
    ? `Earlier feedback (${fmt(v.prior.score)}/${fmt(v.max)}: “${shorten(v.prior.comment, 100)}”) was taken into account.`
    : '';
  const quote = v.quote ? `“${v.quote.text}”` : '';

  if (style === 'Bullet') {
    return [
      `- ${fmt(v.score)}/${fmt(v.max)} for “${v.item}” (sandbox grader): ${reachedLevel(v, 'reaches')}.`,
      v.caveat ? `- ${v.caveat}` : '',
      v.strengths.length > 0 ? `- Shows: ${v.strengths.map((s) => s.text).join('; ')}.` : '',
      v.gaps.length > 0 ? `- Lacks: ${v.gaps.map((g) => g.text).join('; ')}.` : '',
      v.quote ? `- From the answer: ${proof(v)}.` : '',
      `- Next step, ${nextStep(v)}.`,
      prior ? `- ${prior}` : '',
    ]
      .filter(Boolean)
      .join('\n');
  }

  if (style === 'Short') {
    // The quotation sits beside the finding it proves.
    const strength = v.strengths[0];
    const gap = v.gaps[0];
    const by = (text: string | undefined) => (v.quote && text === v.quote.finding ? ` (${quote})` : '');
    const said = [strength ? `it shows ${strength.text}${by(strength.text)}` : '', gap ? `it lacks ${gap.text}${by(gap.text)}` : '']
      .filter(Boolean)
      .join(', but ');
    const elsewhere =
      v.quote && v.quote.finding !== strength?.text && v.quote.finding !== gap?.text ? ` (from the answer: ${proof(v)})` : '';
    return `${fmt(v.score)}/${fmt(v.max)} (sandbox grader), ${reachedLevel(v, 'reaching')}${said ? `: ${said}` : ''}${elsewhere}. Next, ${stop(nextStep(v))}${prior ? ` ${prior}` : ''}`;
  }

  return [
    `“${v.item}” scores ${fmt(v.score)} of ${fmt(v.max)}, which ${reachedLevel(v, 'reaches')}.`,
    v.caveat ?? '',
    v.strengths.length > 0 ? `The answer shows ${list(v.strengths.map((s) => s.text))}.` : '',
    v.quote && !v.quote.problem ? `For example: ${quote}, which shows ${v.quote.finding}.` : '',
    v.gaps.length > 0 ? `It lacks ${list(v.gaps.map((g) => g.text))}.` : '',
    v.quote?.problem ? `For example: ${quote}, which shows what it lacks (${v.quote.finding}).` : '',
    `The next step, ${stop(nextStep(v))}`,
    prior,
    '(Sandbox grader: it measures features of the writing against the rubric’s wording; it does not judge the reasoning itself, and it leaves the top tenth of each criterion to a teacher.)',
  ]
    .filter(Boolean)
    .join(' ');
}
