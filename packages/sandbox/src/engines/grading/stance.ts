// Whether a later statement of a position restates an earlier one: the same topic, the same side.
// "Phones should not be banned" is held by "phones should be allowed", not by "phones should be
// banned" nor by "I urge you to consider my letter" (positions.held in readings.ts).
import { isContentWord, stem, words } from './text.js';

/** What states a side: the words before its reason ("… because they help us learn" gives the reason, not the side). */
const REASON_START = /\b(?:because|since|as|so that|due to|for example)\b|[:;(]/i;
/**
 * Words each of which turns a statement to the other side: a negation, a verb or adjective that
 * takes the thing away or condemns it. "should not be banned" and "should be allowed" agree.
 */
const AGAINST = new Set(
  `not no never nor cannot against oppose opposed disagree ban banned banning bans forbid forbidden forbidding prohibit
prohibited prohibiting scrap scrapped scrapping abolish abolished abolishing outlaw outlawed remove removed removing
stop stopped stopping restrict restricted restricting bad worse worst unfair unnecessary harmful unhelpful pointless
unimportant wrong mistake waste dangerous distracting`.split(/\s+/),
);

/** The side a statement takes: 1 or 0, from how many of its words turn it (two turns cancel out). */
function side(sentence: string): number {
  const statement = sentence.split(REASON_START)[0] ?? sentence;
  let turns = 0;
  for (const w of words(statement.replace(/n['’]t\b/gi, ' not'))) if (AGAINST.has(w)) turns++;
  return turns % 2;
}

/** Stems of the topic a statement names: its content words that are the task's key terms. */
function topicOf(sentence: string, topicStems: ReadonlySet<string>): Set<string> {
  const statement = sentence.split(REASON_START)[0] ?? sentence;
  return new Set(
    words(statement)
      .filter((w) => isContentWord(w) && !AGAINST.has(w))
      .map(stem)
      .filter((s) => topicStems.has(s)),
  );
}

/** A statement of a position, with the sentence before it in its paragraph, which "they" or "it" may stand for. */
export interface Statement {
  text: string;
  before?: string;
}

/** The topic a statement names, or, when it names none ("I believe they should not"), the one the sentence before it names. */
function topicIn(s: Statement, topicStems: ReadonlySet<string>): Set<string> {
  const own = topicOf(s.text, topicStems);
  return own.size > 0 || s.before === undefined
    ? own
    : new Set(
        words(s.before)
          .map(stem)
          .filter((w) => topicStems.has(w)),
      );
}

/** Whether `later` restates `earlier`: a key term of the topic in common ("school" is none), and the same side of it. */
export function restatesPosition(earlier: Statement, later: Statement, topicStems: ReadonlySet<string>): boolean {
  const topic = topicIn(earlier, topicStems);
  const shared = [...topicIn(later, topicStems)].some((s) => topic.has(s));
  return shared && side(earlier.text) === side(later.text);
}
