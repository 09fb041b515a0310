// Repetition in an answer: sentences that restate earlier ones, and how varied its words are.
import type { Doc } from './document.js';
import { STOPS } from './patterns.js';
import { stem } from './text.js';

/**
 * Sentences whose content words mostly appeared together in one earlier sentence (among the
 * previous 100: an essay restates its own recent points, and the cost stays linear). Found through
 * an index of which sentences used each stem, so unrelated sentences cost nothing. Two of the
 * shared words must be the answer's own, not the question's: every point about uniforms names
 * uniforms, and saying so is not restating. A sentence said again word for word restates, however
 * short ("Uniforms are good because they are good." eight times is not eight points).
 */
export function restatedSentences(doc: Doc, questionStems: ReadonlySet<string> = new Set()): number[] {
  const out: number[] = [];
  const usedIn = new Map<string, number[]>();
  const sizes: number[] = [];
  const said = new Set<string>();
  doc.sentences.forEach((s, i) => {
    const whole = s.words.join(' ').toLowerCase();
    const again = s.words.length >= 3 && said.has(whole);
    said.add(whole);
    const own = new Set(s.words.filter((w) => w.length > 3 && !STOPS.has(w)).map(stem));
    sizes.push(own.size);
    if (again) out.push(i);
    else if (own.size >= 4) {
      const shared = new Map<number, number>();
      const sharedOwn = new Map<number, number>();
      for (const w of own) {
        const list = usedIn.get(w) ?? [];
        const fromQuestion = questionStems.has(w);
        for (let k = list.length - 1; k >= 0 && list[k] >= i - 100; k--) {
          shared.set(list[k], (shared.get(list[k]) ?? 0) + 1);
          if (!fromQuestion) sharedOwn.set(list[k], (sharedOwn.get(list[k]) ?? 0) + 1);
        }
      }
      for (const [j, n] of shared) {
        if ((sharedOwn.get(j) ?? 0) >= 2 && n / Math.min(own.size, Math.max(1, sizes[j])) >= 0.5) {
          out.push(i);
          break;
        }
      }
    }
    for (const w of own) {
      const list = usedIn.get(w);
      if (list) list.push(i);
      else usedIn.set(w, [i]);
    }
  });
  return out;
}

/** The words over which vocabulary range is measured. */
export const VOCABULARY_WINDOW = 50;

/**
 * Distinct words per word, averaged over every window of 50 words (a long essay is not punished
 * for repeating "the"). A misspelt word (undefined) takes its place in the window but is never a
 * distinct word, so a slip can only lower the range.
 */
export function vocabularyRange(tokens: (string | undefined)[]): number {
  if (tokens.length === 0) return 0;
  const size = Math.min(VOCABULARY_WINDOW, tokens.length);
  const counts = new Map<string, number>();
  let distinct = 0;
  let total = 0;
  let windows = 0;
  const enter = (t: string | undefined) => {
    if (t === undefined) return;
    counts.set(t, (counts.get(t) ?? 0) + 1);
    if (counts.get(t) === 1) distinct++;
  };
  const leave = (t: string | undefined) => {
    if (t === undefined) return;
    counts.set(t, counts.get(t)! - 1);
    if (counts.get(t) === 0) distinct--;
  };
  for (let i = 0; i < tokens.length; i++) {
    enter(tokens[i]);
    if (i >= size) leave(tokens[i - size]);
    if (i >= size - 1) {
      total += distinct / size;
      windows++;
    }
  }
  return total / windows;
}
