// A position and its reasons, read from a sentence: a verdict on the question's own topic
// ("Uniforms are unfair") states a position, and the next sentence may give its reason ("They are
// itchy."). features.ts finds positions with these.
import { HEDGE, INDIRECT, NOT_PAST, PAST_IRREGULAR, PRESENT, REASON_NEXT, REASONS, REPORTING, VERDICT } from './patterns.js';
import { isContentWord, stem, words } from './text.js';
import { STOP } from './vocabulary.js';

/** "Uniforms are unfair": a verdict whose subject is a word of the question's own (not "it", not "the weather"). */
export function topicalVerdict(sentence: string, questionStems: ReadonlySet<string>): RegExpExecArray | null {
  const verdict = VERDICT.exec(sentence);
  // "whether uniforms are good" asks; the words before the subject are checked by the caller
  if (!verdict || INDIRECT.test(verdict[1])) return null;
  const subject = verdict[1].toLowerCase().split(' ');
  return subject.some((word) => isContentWord(word) && questionStems.has(stem(word))) ? verdict : null;
}

/** Verbs a reason's "It" or "This" goes on with, beside any in -s ("It costs", "This means"). */
const SINGULAR_VERBS = new Set("is has does doesn't doesn’t can cannot can't can’t will would could must may might".split(' '));
/** Verbs a reason's "These" or "Those" goes on with, beside PRESENT's: not a noun ("These days"). */
const PLURAL_VERBS = /^(?:are|do|don['’]t|make|cost|cause|stop|let|take|keep|give|help|hurt|waste)$/;
/**
 * "I think uniforms should be scrapped. They are itchy and uncomfortable.": the next sentence says
 * something, in the present, of a word of the question the position names (They for a plural, It
 * for one) or of the position itself (This); "It was raining" and "This is my opinion" do not.
 */
function saysOfIt(next: string, position: string, questionStems: ReadonlySet<string>): boolean {
  const m = REASON_NEXT.exec(next.trim());
  // a question, a hedge, or other people's words ("They say it is a tradition") give no reason
  if (!m || /\?["”]?$/.test(next) || HEDGE.test(next) || REPORTING.test(next)) return false;
  const [pronoun, contracted, verb] = [m[1].toLowerCase(), m[2], m[3].toLowerCase()];
  if (/^(?:my|what|why|how|a|the)$/.test(verb) && contracted) return false;
  const past = (verb.length > 4 && verb.endsWith('ed') && !NOT_PAST.has(verb)) || PAST_IRREGULAR.has(verb);
  if (past) return false;
  const topical = position
    .toLowerCase()
    .split(/[^a-z'’-]+/)
    .filter((w) => isContentWord(w) && questionStems.has(stem(w)));
  const plural = topical.some((w) => /[^su]s$/.test(w));
  const present = contracted !== undefined || SINGULAR_VERBS.has(verb) || /[^su]s$/.test(verb);
  if (pronoun === 'this') return present;
  if (pronoun === 'it') return present && topical.some((w) => !/[^su]s$/.test(w));
  return plural && (pronoun === 'they' || PRESENT.has(verb) || PLURAL_VERBS.test(verb));
}

/** The words a statement says, as stems: every word but those that only join (STOP), so "good" counts. */
const said = (text: string) =>
  new Set(
    words(text)
      .filter((w) => !STOP.has(w))
      .map(stem),
  );

/** A reason that says nothing the claim does not ("Uniforms are good because they are good"): it restates the claim. */
const restates = (reason: string, claim: string) => {
  const theClaim = said(claim);
  return [...said(reason)].every((w) => theClaim.has(w));
};

/** A sentence's reason and the claim it is given for, split at the first marker REASONS finds; a leading reason ("Because …, I believe …") ends at its comma. */
function reasonIn(sentence: string): { claim: string; reason: string } | undefined {
  const m = REASONS.exec(sentence);
  if (!m) return undefined;
  const [before, after] = [sentence.slice(0, m.index), sentence.slice(m.index + m[0].length)];
  if (before.trim() !== '' || !after.includes(',')) return { claim: before, reason: after };
  const comma = after.indexOf(',');
  return { claim: after.slice(comma + 1), reason: after.slice(0, comma) };
}

/**
 * Whether a position is given with a reason: in its own sentence (REASONS), or in the next one of
 * its paragraph (`next`, '' when none), with a marker or said of it (saysOfIt). A reason that only
 * restates the claim is none.
 */
export function givesReason(position: string, next: string, questionStems: ReadonlySet<string>): boolean {
  const own = reasonIn(position);
  if (own && !restates(own.reason, own.claim)) return true;
  const following = reasonIn(next);
  if (following && !restates(following.reason, position)) return true;
  return saysOfIt(next, position, questionStems) && !restates(next, position);
}
