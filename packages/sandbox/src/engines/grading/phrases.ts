// Every line feedback says about a signal, written from its measured record and nothing else:
// what the answer shows (when the signal is met), what it lacks (when not), and the next step.
// Numbers are the record's; a word of praise ("at length", "precise") only where the record's
// threshold says so (readings.ts, AT_LENGTH_WORDS; docs/sandbox.md lists them). The phrases are
// those of feature-vocabulary.json, so claims.ts reads them as the features they are about.
import { SUGGESTED_LINKS } from './patterns.js';
import type { Measured, Part } from './signals.js';
import type { SlipKind } from './slips.js';

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
export function list(xs: string[], joiner = 'and'): string {
  return xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} ${joiner} ${xs[xs.length - 1]}`;
}
const quoted = (xs: string[]) => xs.map((x) => `“${x}”`);
const distinct = (xs: string[]) => [...new Map(xs.map((x) => [x.toLowerCase(), x])).values()];

const SLIP_WORDS: Record<SlipKind, (n: number) => string> = {
  spelling: (n) => plural(n, 'misspelt word'),
  apostrophes: (n) => plural(n, 'missing apostrophe'),
  'capital I': (n) => `${n} lower-case “i”`,
  'capital letters': (n) => `${plural(n, 'sentence')} starting in lower case`,
  'repeated words': (n) => `${plural(n, 'word')} repeated by mistake`,
  grammar: (n) => `${plural(n, 'slip')} of grammar`,
  'run-on sentences': (n) => plural(n, 'run-on sentence'),
};

/** What the slips are, by kind, with the misspelt words quoted: "13 misspelt words such as “compulsary” and “diffrent”, and 2 missing apostrophes". */
function slipDetail(m: Extract<Measured, { id: 'accuracy' }>): string {
  const kinds = (Object.keys(SLIP_WORDS) as SlipKind[])
    .filter((k) => m.byKind[k] > 0)
    .map((k) => {
      const words = SLIP_WORDS[k](m.byKind[k]);
      return k === 'spelling' ? `${words} such as ${list(quoted(distinct(m.misspelt).slice(0, 3)), 'or')}` : words;
    });
  return kinds.length <= 1 ? kinds.join('') : `${kinds.slice(0, -1).join(', ')}, and ${kinds[kinds.length - 1]}`;
}

function informal(m: Extract<Measured, { id: 'register' }>): string {
  const parts = [
    m.casual > 0 ? plural(m.casual, 'casual word') : '',
    m.contractions > 0 ? plural(m.contractions, 'contraction') : '',
    m.exclamations > 0 ? plural(m.exclamations, 'doubled “!” or “?”', 'doubled “!” or “?”') : '',
  ].filter(Boolean);
  return parts.length === 0 ? 'no casual words or contractions' : list(parts);
}

function support(m: Extract<Measured, { id: 'evidence' }>): string[] {
  return [
    m.figures > 0 ? plural(m.figures, 'figure') : '',
    m.sources > 0 ? plural(m.sources, 'source') : '',
    m.examples > 0 ? plural(m.examples, 'example') : '',
    m.quotations > 0 ? plural(m.quotations, 'quotation') : '',
    m.names > 0 ? plural(m.names, 'name or date', 'names or dates') : '',
  ].filter(Boolean);
}

/** A length range and whose it is: the task's when its question names one, else the sandbox's default, never put as the task's. */
interface Length {
  low: number;
  high: number;
  stated: boolean;
}
/** "the task asks for 400 to 600", or "300 to 800 is usual for such a task" when the question names no length. */
export const lengthAsked = (l: Length) =>
  l.stated ? `the task asks for ${l.low} to ${l.high}` : `${l.low} to ${l.high} is usual for such a task`;
/** "400 to 600 words the task asks for", or "300 to 800 words usual for such a task". */
export const wordsAsked = (l: Length) => `${l.low} to ${l.high} words ${l.stated ? 'the task asks for' : 'usual for such a task'}`;

/** The words counted as development: with sentences restating earlier ones left out, how many of how many. */
function developedWords(m: Extract<Measured, { id: 'development' }>): string {
  if (m.restated === 0) return plural(m.words, 'word');
  return `${m.words} of its ${m.total} words are not restatement (${m.restated} of its ${m.sentences} sentences restate earlier ones)`;
}

/** What the answer shows, said when the signal is met. */
export function shows(m: Measured): string {
  switch (m.id) {
    case 'development':
      return m.words > m.high
        ? `development: ${developedWords(m)}, more than the ${m.low} to ${m.high} ${m.stated ? 'asked for' : 'usual for such a task'}`
        : `development: ${developedWords(m)}, within the ${m.low} to ${m.high} ${m.stated ? 'asked for' : 'usual for such a task'}`;
    case 'progression':
      return `each point moving the answer on (${plural(m.restated, 'sentence')} of ${m.sentences} restating an earlier one)`;
    case 'paragraphs':
      return `paragraphing: ${plural(m.paragraphs, 'paragraph')} for ${plural(m.words, 'word')}`;
    case 'frame':
      return m.opens && m.closes
        ? 'an opening paragraph and a conclusion in its last paragraph'
        : m.opens
          ? 'an opening paragraph'
          : 'a conclusion at its end';
    case 'connectives':
      return `links between points (${plural(m.kinds, 'kind')}: ${list(quoted(m.used.slice(0, 3)))}${m.used.length > 3 ? '...' : ''})`;
    case 'position':
      return m.early && m.held
        ? 'a position stated in the opening and held to the conclusion'
        : m.early
          ? 'a position stated in the opening'
          : 'a position, stated after the opening and held to the conclusion';
    case 'precision':
      return 'a precise position: the opening states it with a reason';
    case 'counter':
      return m.atLength
        ? `an opposing view, answered at length (${plural(m.replySentences, 'sentence')}, ${plural(m.replyWords, 'word')})`
        : `an opposing view, answered in ${plural(m.replySentences, 'sentence')} (${plural(m.replyWords, 'word')})`;
    case 'evidence':
      return `specific support (${list(support(m))})`;
    case 'explanation':
      return `explanation of what its support shows (${plural(m.explained, 'piece')} of support explained)`;
    case 'quotations':
      return `${plural(m.quotations, 'quotation')} from the text`;
    case 'analysis':
      return `comment on how methods create meaning (${plural(m.methods, 'different analytic word or term', 'different analytic words and terms')})`;
    case 'context':
      return `knowledge beyond the question (${plural(m.names, 'name or date', 'names or dates')} it brings in)`;
    case 'provenance':
      return 'use of who made the source, when and why';
    case 'judgement': {
      const how = [m.qualified ? 'qualified' : '', m.final ? 'reached in the conclusion' : ''].filter(Boolean);
      return `a judgement${how.length > 0 ? `, ${how.join(' and ')}` : ''}`;
    }
    case 'accuracy':
      return m.slips === 0
        ? `accurate spelling, punctuation and grammar (no slips found in ${plural(m.words, 'word')})`
        : `mostly accurate writing (${plural(m.slips, 'slip')} in ${plural(m.words, 'word')}: ${slipDetail(m)})`;
    case 'register':
      return m.story
        ? `a controlled register (${informal(m)} in ${plural(m.words, 'word')})`
        : `a formal register (${informal(m)} in ${plural(m.words, 'word')})`;
    case 'vocabulary':
      return `a varied vocabulary (on average ${m.distinct} different words in any ${m.window}, ${m.longPercent}% of seven letters or more)`;
    case 'variety':
      return `varied sentences (${plural(m.sentences, 'sentence')} of ${m.shortest} to ${plural(m.longest, 'word')})`;
    case 'dialogue':
      return `dialogue that moves the story on (${plural(m.lines, 'line')})`;
    case 'description':
      return `sensory detail (${plural(m.details, 'word')} of sight, sound and touch, or comparisons)`;
    case 'story':
      return m.lines > 0
        ? `a story told through events and speech (${plural(m.lines, 'line')} of dialogue, ${plural(m.changes, 'moment')} of change)`
        : `a story told through events (${plural(m.changes, 'moment')} of change)`;
    case 'turning':
      return `a turning point the reader sees happen (${plural(m.late, 'moment')} of change after the first third)`;
    case 'coverage':
      return `what the criterion names (${list(quoted(m.found.slice(0, 3)))})`;
  }
}

/**
 * What a quotation of one sentence shows of a met point: its Shows line, or, when that line claims
 * more than one sentence can, only the part quoted ("a conclusion in its last paragraph" of "an
 * opening paragraph and a conclusion in its last paragraph").
 */
export function shownBy(m: Measured, part: Part | undefined): string {
  if (part === undefined) return shows(m);
  switch (m.id) {
    case 'frame':
      return m.opens ? 'a conclusion in its last paragraph' : shows(m);
    case 'position':
      return part === 'opening' ? 'a position stated in the opening' : part === 'end' ? 'a position held to the conclusion' : 'a position';
    case 'counter':
      return 'an opposing view';
    case 'judgement':
      return part === 'end' ? 'a judgement reached in the conclusion' : 'a judgement';
    default:
      return shows(m);
  }
}

/** What the answer lacks, said when the signal is not met. */
export function lacks(m: Measured): string {
  switch (m.id) {
    case 'development':
      if (m.over) return `control of length: ${plural(m.total, 'word')} where ${lengthAsked(m)}`;
      return m.words < m.low
        ? `development: only ${developedWords(m)}${m.restated > 0 ? ',' : ''} where ${lengthAsked(m)}`
        : `development: points are made more than developed (${developedWords(m)})`;
    case 'progression':
      return m.sentences < 3
        ? `progression: ${plural(m.sentences, 'sentence')} are too few to move an answer on`
        : `progression (${plural(m.restated, 'sentence')} of ${m.sentences} restating earlier points)`;
    case 'paragraphs':
      if (m.words < 60) return `enough writing to organise (${plural(m.words, 'word')})`;
      return m.paragraphs <= 1
        ? `paragraphs: it is written as one block of ${plural(m.words, 'word')}`
        : `enough paragraphs (${m.paragraphs} for ${plural(m.words, 'word')})`;
    case 'frame':
      return m.opens ? 'a conclusion' : m.closes ? 'an opening paragraph' : 'an opening paragraph and a conclusion';
    case 'connectives':
      return m.used.length === 0 ? 'links between points' : `links between points (only ${list(quoted(m.used))})`;
    case 'position':
      if (m.contrary) {
        // the conclusion's words and the position's, as written: a reader sees the two sides
        const sides = `${m.early ? 'the opening' : 'the answer first'} argues “${m.contrary.from}”, the conclusion the opposite: “${m.contrary.to}”`;
        return m.early
          ? `a conclusion that holds to the position taken at the start (${sides})`
          : `a position stated early, and a conclusion that holds to it (${sides})`;
      }
      return m.stated ? 'a position stated early: it only appears later' : 'a clearly stated position';
    case 'precision':
      return m.early
        ? 'a precise position: the opening states a view without giving a reason for it'
        : 'a precise position, with its reasons, in the opening';
    case 'counter':
      return m.views > 0 ? 'a reply to the opposing view it states' : 'the strongest opposing argument, and a reply to it';
    case 'evidence': {
      const kinds = support(m);
      // "Research shows" is said, not dropped: what it lacks is the name of its source
      const unnamed = m.unnamed > 0 ? `${plural(m.unnamed, 'source')} not named` : '';
      if (kinds.length === 0) return `specific support: figures, named sources or examples${unnamed ? ` (${unnamed})` : ''}`;
      return `enough specific support (only ${list(kinds)}${unnamed ? `, and ${unnamed}` : ''})`;
    }
    case 'explanation':
      return m.any
        ? `enough explanation (${plural(m.explained, 'piece')} of support explained)`
        : 'explanation of how the support proves the point';
    case 'quotations':
      return m.quotations === 0 ? 'quotations from the text' : `enough reference to the text (${plural(m.quotations, 'quotation')})`;
    case 'analysis':
      return m.methods === 0
        ? 'comment on the methods used and their effect'
        : `enough analysis of methods (${plural(m.methods, 'different analytic word or term', 'different analytic words and terms')}, of the ${m.needed} it takes)`;
    case 'context':
      return `specific knowledge beyond the question: names, dates and events (${plural(m.names, 'name or date', 'names or dates')} so far)`;
    case 'provenance':
      return m.named === 0 ? 'use of who made the source, when and why' : 'enough use of the source’s origin and purpose';
    case 'judgement':
      return m.judgements === 0
        ? 'a judgement on the question asked'
        : !m.qualified
          ? 'a qualified judgement: what the source is useful for, and where it falls short'
          : !m.final
            ? 'a judgement reached at the end'
            : 'support for the judgement at the end';
    case 'accuracy':
      return m.words < 20
        ? `enough writing to show accuracy (${plural(m.words, 'word')})`
        : `accuracy (${plural(m.slips, 'slip')} in ${plural(m.words, 'word')}: ${slipDetail(m)})`;
    case 'register':
      // under 20 words the register is not judged (signals.ts): what is lacking is the writing, not formality
      return m.words < 20
        ? `enough writing to show its register (${plural(m.words, 'word')})`
        : `a formal register (${informal(m)} in the writer’s own voice)`;
    case 'vocabulary':
      return m.words < 40
        ? `enough writing to show its vocabulary (${plural(m.words, 'word')})`
        : `a wider vocabulary (on average ${m.distinct} different words in any ${m.window}, ${m.longPercent}% of seven letters or more)`;
    case 'variety':
      if (m.sentences < 3) return `varied sentences (only ${plural(m.sentences, 'sentence')})`;
      return m.runOns > 0
        ? `control of sentence length (${m.runOns} of ${m.sentences} sentences run past ${m.runOnWords} words)`
        : `varied sentence lengths (${plural(m.sentences, 'sentence')} of ${m.shortest} to ${plural(m.longest, 'word')})`;
    case 'dialogue':
      return m.lines === 0
        ? 'dialogue set out with speech marks'
        : m.punctuated * 2 < m.lines
          ? `dialogue set out correctly: punctuation inside the speech marks (${m.punctuated} of ${plural(m.lines, 'line')})`
          : `enough dialogue to move the story on (${plural(m.lines, 'line')})`;
    case 'description':
      return `sensory detail: what the character sees, hears and feels (${plural(m.details, 'word')} of the senses so far)`;
    case 'story':
      return 'a story: events that happen to characters, told in order';
    case 'turning':
      return m.changes === 0
        ? 'a turning point: a moment where the character changes'
        : `a turning point that is shown, not only told (${plural(m.late, 'moment')} of change after the first third)`;
    case 'coverage':
      return `what the criterion names: ${list(quoted(m.missing.slice(0, 3)), 'or')}`;
  }
}

/** The next step, in the rubric's terms, for a signal not met. It names nothing but what that signal lacks. */
export function advice(m: Measured): string {
  switch (m.id) {
    case 'development':
      return m.over
        ? `select the strongest points and develop those, within the ${m.low} to ${m.high} words asked for`
        : `develop each point further, to the ${wordsAsked(m)}`;
    case 'progression':
      return 'make each paragraph add something new, rather than restating earlier points';
    case 'paragraphs':
      // under 60 words there is too little to organise: paragraphs already there are not the gap
      return m.words < 60 ? 'develop each main point into a paragraph of its own' : 'give each main point a paragraph of its own';
    case 'frame':
      return 'open with a paragraph that sets out the answer, and end with a conclusion that returns to its main point';
    case 'connectives': {
      const unused = SUGGESTED_LINKS.filter((l) => !m.used.includes(l)).slice(0, 3);
      return `link each paragraph to the one before, with words such as ${list(quoted(unused), 'or')}`;
    }
    case 'position':
      return m.contrary
        ? 'hold the position to the end: end by arguing the side the answer takes first, or, if the view changed while writing, change the first paragraph to argue it'
        : 'state the position in the first paragraph, in one sentence';
    case 'precision':
      return 'give the reason for the position in the sentence that states it (“… because …”)';
    case 'counter':
      return m.views > 0
        ? 'after stating the opposing view, explain why it does not outweigh the position'
        : 'state the strongest argument on the other side, then answer it';
    case 'evidence':
      return m.unnamed > 0
        ? 'name the source of each claim (who found it, and where), and support each point with something specific: a figure or an example'
        : 'support each point with something specific: a figure, a named source or an example';
    case 'explanation':
      return 'after each piece of support, explain in a sentence how it proves the point (“this shows that…”)';
    case 'quotations':
      return 'quote short phrases from the text and build them into your own sentences';
    case 'analysis':
      return 'name a method (a word choice, the setting, the structure) and explain the effect it creates';
    case 'context':
      return 'bring in precise knowledge of the period (names, dates, events) and say what it shows';
    case 'provenance':
      return 'use who made the source, when and why, to judge what it can and cannot show';
    case 'judgement':
      return 'end with a judgement that says how far the answer to the question holds, and why';
    case 'accuracy': {
      const kinds = (Object.keys(SLIP_WORDS) as SlipKind[]).filter((k) => m.byKind[k] > 0).slice(0, 3);
      return m.words < 20
        ? 'write the answer out in full sentences, then check it'
        : `check ${kinds.length > 0 ? list(kinds) : 'spelling, punctuation and grammar'} before handing in`;
    }
    case 'register':
      return 'write in a formal register for the audience: no casual words or contractions outside quotations';
    case 'vocabulary':
      // advice, not a reading: it quotes no word the answer may not have used
      return 'choose exact, varied words, and vary those used most';
    case 'variety':
      return m.runOns > 0
        ? `split the sentences that run past ${m.runOnWords} words`
        : 'vary sentence length: short sentences for emphasis, longer ones to develop ideas';
    case 'dialogue':
      return 'use a few lines of dialogue to show what the character feels, punctuated inside the speech marks';
    case 'description':
      return 'show the key moment through concrete detail of sight, sound and touch';
    case 'story':
      return 'tell a story: a character, a problem, and events that lead to a change';
    case 'turning':
      return 'build to one moment where the character changes, and show it through what they do and say';
    case 'coverage':
      return `address what the criterion names: ${list(quoted(m.missing.slice(0, 3)))}`;
  }
}
