// Whether a later statement of a position restates an earlier one (the same topic, the same side) or argues against it.
// "Phones should not be banned" is held by "phones should be allowed", not by "phones should be
// banned" nor by "I urge you to consider my letter" (positions.held in readings.ts).
import { isContentWord, stem, words } from './text.js';

/** What states a side: the words before its reason ("… because they help us learn" gives the reason, not the side). */
const REASON_START = /\b(?:because|since|as|so that|due to|for example)\b|[:;(]/i;
/** The words of a sentence that state its side: before its reason, or after it when it leads ("In conclusion, because …, I believe …"). */
const statementOf = (sentence: string) =>
  sentence.replace(/^\s*(?:[\w ]{1,20},\s*)?(?:because|since|as)\b[^,]*,\s*/i, '').split(REASON_START)[0] ?? sentence;
/**
 * Words each of which turns a statement to the other side: a negation, a verb or adjective that
 * takes the thing away or condemns it. "should not be banned" and "should be allowed" agree, and so do
 * "should not be compulsory" and "should get rid of it".
 */
const AGAINST = new Set(
  `not no never nor cannot against oppose opposed disagree ban banned banning bans forbid forbidden forbidding prohibit
prohibited prohibiting scrap scrapped scrapping abolish abolished abolishing outlaw outlawed remove removed removing
stop stopped stopping restrict restricted restricting bad worse worst unfair unnecessary harmful unhelpful pointless
unimportant wrong mistake waste dangerous distracting rid ditch ditched abandon abandoned eliminate eliminated optional
voluntary harm harms`.split(/\s+/),
);

/** Where a statement's clauses part: "uniforms are bad and we should not have them" says one side twice. */
const CLAUSE = /,\s*|\s+(?:and|but)\s+/i;

/**
 * The side a statement takes: 1 when a clause of it is turned (an odd number of its words turn it:
 * two cancel out), else 0. Clause by clause, so that a side said twice is not turned back.
 */
function side(sentence: string): number {
  // "No, phones should not be banned": the answer to the question is the clause after it
  const statement = statementOf(sentence)
    .replace(/n['’]t\b/gi, ' not')
    .replace(/^\s*(?:yes|no)\b[,.!]?\s+(?=\S)/i, '')
    // "not only …", "not as a misfortune but as …", "not because …": a contrast, not the other side
    .replace(/\bnot\s+(?:only|just|merely|simply|so much|as|because|for)\b|\bnot\s*$/gi, '');
  const turned = (clause: string) => words(clause).filter((w) => AGAINST.has(w)).length % 2 === 1;
  return statement.split(CLAUSE).some(turned) ? 1 : 0;
}

/** Stems of the topic a statement names: its content words that are the task's key terms. */
function topicOf(sentence: string, topicStems: ReadonlySet<string>): Set<string> {
  const statement = statementOf(sentence);
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

/** A word that stands for something named before it: "they" in "I believe they should not". */
const STANDS_FOR = /\b(?:they|them|it|this|these|those)\b/i;

/**
 * The topic a statement names, or, when it names none and stands for something ("I believe they
 * should not"), the one its own reason names ("because phones help us, I believe they…"), else the
 * sentence before it; "Steinbeck presents Crooks" names its own.
 */
function topicIn(s: Statement, topicStems: ReadonlySet<string>): Set<string> {
  const own = topicOf(s.text, topicStems);
  if (own.size > 0 || !STANDS_FOR.test(statementOf(s.text))) return own;
  const named = (text: string) =>
    new Set(
      words(text)
        .map(stem)
        .filter((w) => topicStems.has(w)),
    );
  const reason = named(s.text);
  return reason.size > 0 || s.before === undefined ? reason : named(s.before);
}

/** Whether `later` restates `earlier` (`same`), argues the other side of it (`opposite`), or names none of its topic (`undefined`): a key term in common ("school" is none), then the side. */
export function stanceOf(earlier: Statement, later: Statement, topicStems: ReadonlySet<string>): 'same' | 'opposite' | undefined {
  const topic = topicIn(earlier, topicStems);
  if (![...topicIn(later, topicStems)].some((s) => topic.has(s))) return undefined;
  if (side(earlier.text) === side(later.text)) return 'same';
  // the other side only when each says what should happen in words read as a side: "should go" after "should not be compulsory" is not known
  return decides(earlier.text) && decides(later.text) ? 'opposite' : undefined;
}

/** Words that keep or allow the thing, the counterpart of those that turn a statement (AGAINST, negations apart). */
const FOR = new Set(
  'allow allowed allowing permit permitted keep kept stay compulsory mandatory required require good useful helpful necessary'.split(' '),
);
const NEGATION = new Set('not no never nor cannot'.split(' '));
/** Whether a statement names what should happen to its topic in words read as a side, not by a negation alone. */
const decides = (sentence: string) => words(statementOf(sentence)).some((w) => FOR.has(w) || (AGAINST.has(w) && !NEGATION.has(w)));

/** The words of a sentence that state its side, as written (its reason left off): what a reader is shown of a position. */
export function sideWords(sentence: string, most = 14): string {
  const kept = statementOf(sentence)
    .replace(/[()[\]“”"]/g, '')
    .trim()
    .split(/\s+/);
  const cut = kept
    .slice(0, most)
    .join(' ')
    .replace(/[,.!?]+$/, '');
  return kept.length > most ? `${cut}…` : cut;
}
