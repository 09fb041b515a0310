// The opposing views an answer states and its replies to them: where a reply starts (a marker
// word, or a sentence that denies the view or offers a way out of it) and where it ends (the next
// view, the end of its paragraph, the conclusion). Kept apart from the counting (features.ts).
import type { Doc } from './document.js';
import type { Hits, Reply } from './features.js';
import { CONCESSION, CONCLUSION, COUNTER, DENIAL, NEGATION, REBUT, REMEDY, REPORTING, TOPICAL_WORRY } from './patterns.js';
import { isContentWord, stem, words } from './text.js';

/**
 * The opposing view a sentence states, if any: a view given to others (COUNTER), or a worry about
 * the question's own topic ("Some parents worry about the cost of uniforms"), not about something
 * else ("Some students worry about what their classmates will think").
 */
export function opposingView(read: string, questionStems: ReadonlySet<string>): RegExpExecArray | null {
  const view = COUNTER.exec(read);
  if (view) return view;
  const worry = TOPICAL_WORRY.exec(read);
  const topical = worry && words(worry[1]).some((w) => isContentWord(w) && questionStems.has(stem(w)));
  return topical ? worry : null;
}

/** The stems of a text's content words that are not the question's: what a view says beyond naming the topic. */
function ownStems(text: string, questionStems: ReadonlySet<string>): string[] {
  return words(text)
    .filter(isContentWord)
    .map(stem)
    .filter((s) => !questionStems.has(s));
}

/**
 * A sentence that answers a view stated before it in its paragraph without a marker word: it
 * dismisses it, denies it ("That is not what happens"), negates what it says ("Uniforms do not
 * stop bullying" after "…uniforms stop bullying") or offers a way out ("The school could run…").
 */
function answersUnmarked(read: string, view: string, questionStems: ReadonlySet<string>): boolean {
  // granting the view, or going on reporting it, answers nothing, whatever words it uses
  if (CONCESSION.test(read) || REPORTING.test(read.replace(/^["“]/, ''))) return false;
  if (DENIAL.test(read) || REMEDY.test(read)) return true;
  const negated = NEGATION.exec(read);
  if (!negated) return false;
  const said = new Set(ownStems(view.replace(COUNTER, ''), questionStems));
  return ownStems(read.slice(negated.index), questionStems).some((s) => said.has(s));
}

/**
 * Each opposing view answered, with its reply: the first sentence that answers it, in the view's
 * own sentence or later in its paragraph (a concession may come first; there without a marker
 * word too), in the next two sentences, or opening the next paragraph with a reply ("However, ...").
 * A reply runs to the end of its paragraph, stopping before another view or the conclusion.
 */
export function repliesTo(doc: Doc, read: string[], counter: Hits, questionStems: ReadonlySet<string>): Reply[] {
  const out: Reply[] = [];
  const views = new Set(counter.sentences);
  const last = doc.paragraphs.length - 1;
  // the conclusion as features.ts finds it: opened by its marker, in the last paragraph
  const concludes = (j: number) => doc.sentences[j].paragraph === last && CONCLUSION.test(read[j]);
  const answers = (j: number) => REBUT.test(read[j].replace(COUNTER, ''));
  for (const i of counter.sentences) {
    const paragraph = doc.sentences[i].paragraph;
    let from: number | undefined;
    for (let j = i; j < doc.sentences.length && from === undefined; j++) {
      const same = doc.sentences[j].paragraph === paragraph;
      const opensNext = !same && doc.sentences[j - 1].paragraph === paragraph;
      if (!same && j > i + 2 && !opensNext) break;
      const unmarked = same && j > i && !views.has(j) && !concludes(j) && answersUnmarked(read[j], read[i], questionStems);
      if (unmarked || (same || j <= i + 2 ? answers(j) : REBUT.exec(read[j].replace(/^["“]/, ''))?.index === 0)) from = j;
    }
    if (from === undefined) continue;
    const own = doc.sentences[from].paragraph;
    let end = from + 1;
    while (end < doc.sentences.length && doc.sentences[end].paragraph === own && !views.has(end) && !concludes(end)) end++;
    const kept = doc.sentences.slice(from, end);
    out.push({ counter: i, from, words: kept.reduce((n, s) => n + s.words.length, 0), sentences: kept.length });
  }
  return out;
}
