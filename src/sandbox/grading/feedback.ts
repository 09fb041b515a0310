import type { CriterionResult } from './criterion.js';

export type FeedbackStyle = 'Bullet' | 'Short' | 'Long';

export interface FeedbackInput {
  item: string;
  score: number;
  max: number;
  style: FeedbackStyle;
  /** Undefined when the answer was empty. */
  result: CriterionResult | undefined;
  level?: { score: number; descriptor: string };
  prior?: { comment: string; score: number };
}

const quote = (xs: string[]) => xs.map((x) => `“${x}”`);
function list(xs: string[], joiner: 'and' | 'or'): string {
  return xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} ${joiner} ${xs[xs.length - 1]}`;
}
function shorten(s: string, n: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 3).trimEnd()}...` : flat;
}
const fmt = (n: number) => String(Number(n.toFixed(2)));
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function band(ratio: number): string {
  if (ratio >= 0.85) return 'Strong';
  if (ratio >= 0.65) return 'Sound';
  if (ratio >= 0.4) return 'Partial';
  if (ratio > 0) return 'Limited';
  return 'No credit';
}

const ADVICE: Record<string, string> = {
  evidence: 'back each point with an example, a figure or a quotation',
  paragraphs: 'give each main point its own paragraph',
  connectives: 'link the points with words such as “however” and “therefore”',
  variety: 'mix short and longer sentences',
  vocabulary: 'use more precise and varied words',
  position: 'state the position clearly at the start and return to it at the end',
  counter: 'answer an opposing view',
  length: 'develop each point with more explanation',
};

/** The one thing most worth doing next: the weakest signal, else the key terms still missing. */
function nextStep(r: CriterionResult): string | undefined {
  const weakest = [...r.signals].sort((a, b) => a.value - b.value)[0];
  if (weakest && weakest.value < 0.6) return ADVICE[weakest.name];
  if (r.missing.length > 0) return `say more about ${list(quote(r.missing.slice(0, 3)), 'and')}`;
  return undefined;
}

/** What the answer has and lacks for this criterion: key terms first, then measured signals. */
function coverage(r: CriterionResult, terms: number) {
  const found = [
    ...(r.matched.length > 0 ? [list(quote(r.matched.slice(0, terms)), 'and')] : []),
    ...r.signals.map((s) => s.found).filter((s): s is string => !!s),
  ];
  const lacking = [
    ...(r.missing.length > 0 ? [list(quote(r.missing.slice(0, terms)), 'or')] : []),
    ...r.signals.map((s) => s.lacking).filter((s): s is string => !!s),
  ];
  // An answer far from the question is worth saying so, on every criterion.
  if (r.relevance !== undefined && (r.relevance < 0.3 || r.focus === 'content')) {
    const share = `${Math.round(r.relevance * 100)}%`;
    if (r.relevance < 0.3) lacking.push(`most of the question’s key terms (it uses ${share})`);
    else found.push(`${share} of the question’s key terms`);
  }
  return { found, lacking };
}

function emptyFeedback(f: FeedbackInput): string {
  if (f.style === 'Bullet') return `- No answer text was given, so nothing could be credited for “${f.item}”.`;
  if (f.style === 'Short') return `No answer text was given, so “${f.item}” scores 0.`;
  return `No answer text was given, so “${f.item}” scores 0 of ${fmt(f.max)} (sandbox grader). Submit the answer as text or as a readable file to have it marked.`;
}

/**
 * Feedback that claims only what the sandbox really checked: the criterion's key terms the
 * answer uses and misses, and the measured signals behind the score.
 */
export function feedback(f: FeedbackInput): string {
  const r = f.result;
  if (!r) return emptyFeedback(f);
  const ratio = f.max > 0 ? f.score / f.max : 0;
  const step = nextStep(r);
  const prior = f.prior
    ? `earlier feedback (${fmt(f.prior.score)}/${fmt(f.max)}: “${shorten(f.prior.comment, 100)}”) was taken into account`
    : undefined;

  if (f.style === 'Bullet') {
    const { found, lacking } = coverage(r, 5);
    return [
      `- ${band(ratio)}: ${fmt(f.score)}/${fmt(f.max)} for “${f.item}”.`,
      `- Covers: ${found.length > 0 ? found.join('; ') : 'nothing this criterion looks for'}.`,
      `- Missing: ${lacking.length > 0 ? lacking.join('; ') : 'nothing this grader checks for'}.`,
      step ? `- Next step: ${step}.` : '',
      prior ? `- ${capital(prior)}.` : '',
    ].filter(Boolean).join('\n');
  }

  if (f.style === 'Short') {
    const { found, lacking } = coverage(r, 3);
    const has = found.length > 0 ? `has ${list(found.slice(0, 2), 'and')}` : 'has little this criterion looks for';
    const first = `${band(ratio)} on “${f.item}”: the answer ${has}${lacking.length > 0 ? ` but lacks ${list(lacking.slice(0, 2), 'and')}` : ''}.`;
    const second = [step ? capital(step) : '', prior ? (step ? prior : capital(prior)) : ''].filter(Boolean).join('; ');
    return second ? `${first} ${second}.` : first;
  }

  const { found, lacking } = coverage(r, 5);
  return [
    `“${f.item}” scores ${fmt(f.score)} of ${fmt(f.max)} (sandbox grader: it compares the answer with the criterion’s key terms and measurable features of the writing; it does not judge the reasoning itself).`,
    found.length > 0 ? `The answer has ${found.join('; ')}.` : 'The answer shows little of what this criterion looks for.',
    lacking.length > 0
      ? `It lacks ${lacking.join('; ')}.`
      : 'Nothing this grader checks for is missing; it leaves the last tenth of each criterion to a human marker.',
    f.level ? `The nearest level descriptor (${fmt(f.level.score)}) reads: “${shorten(f.level.descriptor, 140)}”.` : '',
    step ? `To improve, ${step}.` : 'To keep this standard, keep the same detail and support.',
    prior ? `${capital(prior)}.` : '',
  ].filter(Boolean).join(' ');
}
