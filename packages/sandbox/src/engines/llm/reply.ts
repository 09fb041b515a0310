// The model's reply, checked before anything is stored: JSON of the asked shape, every criterion
// (or section) exactly once, scores within their maxima, feedback present. The problems found are
// worded so the model can repair them, and so a person can read why a task failed.
import { z } from 'zod';

/** The JSON in a reply, tolerating the code fences and stray prose some models add. */
export function jsonIn(content: string): unknown {
  const trimmed = content.trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    // The outermost object, when the model wrapped it in ```json fences or a sentence.
    const start = trimmed.indexOf('{');
    const end = trimmed.lastIndexOf('}');
    if (start >= 0 && end > start) {
      try {
        return JSON.parse(trimmed.slice(start, end + 1));
      } catch {
        /* reported below */
      }
    }
    throw new ReplyProblem(['the reply is not valid JSON']);
  }
}

export class ReplyProblem extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'ReplyProblem';
  }
}

const Marking = z.object({
  criteria: z.array(z.object({ item: z.string(), score: z.number(), feedback: z.string() })),
});
const Rewritten = z.object({
  sections: z.array(z.object({ item: z.string(), comment: z.string() })),
});

const key = (s: string) => s.trim().toLowerCase();
const issues = (error: z.ZodError) => error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'the reply'}: ${i.message}`);

/** Entries matched to the expected names (ignoring case and spaces), each exactly once. */
function matchItems<T extends { item: string }>(
  entries: T[],
  expected: string[],
  noun: string,
): { byItem: Map<string, T>; problems: string[] } {
  const problems: string[] = [];
  const wanted = new Map(expected.map((e) => [key(e), e]));
  const byItem = new Map<string, T>();
  for (const entry of entries) {
    const name = wanted.get(key(entry.item));
    if (!name) problems.push(`${noun} "${entry.item}" is not in the rubric`);
    else if (byItem.has(name)) problems.push(`${noun} "${name}" appears more than once`);
    else byItem.set(name, entry);
  }
  for (const name of expected) if (!byItem.has(name)) problems.push(`${noun} "${name}" is missing`);
  return { byItem, problems };
}

export interface MarkedCriterion {
  item: string;
  score: number;
  max_score: number;
  feedback: string;
}

/**
 * A marking reply checked against the rubric. Scores are rounded to the sandbox's grain of 0.5;
 * a score outside [0, max] is a problem, not something to clip: the model misread the scale.
 */
export function checkMarking(value: unknown, rubric: { item: string; max_score: number }[]): MarkedCriterion[] {
  const parsed = Marking.safeParse(value);
  if (!parsed.success) throw new ReplyProblem(issues(parsed.error));
  const { byItem, problems } = matchItems(
    parsed.data.criteria,
    rubric.map((r) => r.item),
    'criterion',
  );
  const out: MarkedCriterion[] = [];
  for (const r of rubric) {
    const entry = byItem.get(r.item);
    if (!entry) continue;
    if (!Number.isFinite(entry.score) || entry.score < 0 || entry.score > r.max_score) {
      problems.push(`criterion "${r.item}" scored ${entry.score}, outside 0 to ${r.max_score}`);
    }
    if (entry.feedback.trim() === '') problems.push(`criterion "${r.item}" has no feedback`);
    out.push({ item: r.item, score: Math.round(entry.score * 2) / 2, max_score: r.max_score, feedback: entry.feedback.trim() });
  }
  if (problems.length > 0) throw new ReplyProblem(problems);
  return out;
}

export function checkRewrite(value: unknown, items: string[]): Map<string, string> {
  const parsed = Rewritten.safeParse(value);
  if (!parsed.success) throw new ReplyProblem(issues(parsed.error));
  const { byItem, problems } = matchItems(parsed.data.sections, items, 'section');
  for (const [item, entry] of byItem) if (entry.comment.trim() === '') problems.push(`section "${item}" has no comment`);
  if (problems.length > 0) throw new ReplyProblem(problems);
  return new Map([...byItem].map(([item, entry]) => [item, entry.comment.trim()]));
}

/** Bullet feedback as the sandbox writes it: every line a "- " point, whatever marker the model used. */
export function asBullets(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => `- ${l.replace(/^(?:[-*•·]|\d{1,2}[.)])\s*/, '')}`)
    .join('\n');
}
