// What the grader found in an answer, as the features of feature-vocabulary.json: the evidence a
// level descriptor is checked against before it is quoted. Each fact comes from the same readings
// as the signal that scores it, so a descriptor is quoted only when the measurements agree with it.
import { closeFacts, type Facts, type FeatureId } from './claims.js';
import {
  AT_LENGTH_WORDS,
  errorRate,
  frameReading,
  judgementReading,
  lateChanges,
  longestReply,
  ON_TOPIC,
  positionReading,
  punctuatedShare,
  type SignalContext,
  storyValue,
  supportUnits,
} from './readings.js';
import { inSection, METHOD_SECTION } from './sections.js';
import { MET, type SignalId, signal } from './signals.js';

/** At most this many slips per 100 words is "virtually error-free". */
const ERROR_FREE_RATE = 0.25;

/** Fewer slips than this are never "frequent errors", however short the answer. */
const FREQUENT_SLIPS = 3;

export function factsOf(ctx: SignalContext, relevance: number): Facts {
  const { f } = ctx;
  const met = (id: SignalId) => signal(id, ctx).value >= MET;
  const position = positionReading(ctx);
  const frame = frameReading(ctx);
  const judgement = judgementReading(ctx);
  const reply = longestReply(f);
  const over = ctx.task.length.stated && f.words > ctx.task.length.high * 1.5;
  const measured: [FeatureId, boolean][] = [
    ['on_topic', relevance >= ON_TOPIC],
    ['story', storyValue(f) >= ON_TOPIC],
    ['developed', met('development') || over],
    ['length_controlled', !over],
    ['position', f.position.count > 0],
    ['position_early', position.early.length > 0],
    ['position_precise', position.precise.length > 0],
    ['position_held', position.held.length > 0],
    ['counter', f.counter.count > 0],
    ['counter_answered', reply !== undefined],
    ['counter_developed', (reply?.words ?? 0) >= AT_LENGTH_WORDS],
    ['evidence', supportUnits(f) > 0],
    ['evidence_sufficient', met('evidence')],
    // Some support explained, as the Lacks line's count says ("0 pieces of support explained").
    ['explained_any', f.explained.sentences.length > 0],
    ['explained', met('explanation')],
    ['paragraphs', f.paragraphs >= 2],
    ['structure', met('paragraphs')],
    // An opening or a conclusion is a structure that can be discerned, whatever the paragraphs: "No structure" is untrue of it.
    ['structure_any', met('paragraphs') || frame.opens || frame.closes.length > 0],
    ['transitions', met('connectives')],
    ['introduction', frame.opens],
    ['conclusion', frame.closes.length > 0],
    ['progression', met('progression')],
    ['accurate', met('accuracy')],
    ['error_free', f.words >= 20 && errorRate(f) <= ERROR_FREE_RATE],
    // Whether any slip was found, at any length: "Errors make the writing hard to follow" needs one.
    ['slips', f.errors.count > 0],
    // Errors "frequent", or that make writing hard to follow: more than one or two slips, at a rate not accurate.
    ['errors_frequent', f.errors.count >= FREQUENT_SLIPS && !met('accuracy')],
    ['formal', met('register')],
    ['vocabulary', met('vocabulary')],
    ['variety', met('variety')],
    ['quotations_any', f.quotations.count > 0],
    ['quotations', met('quotations')],
    // An inference drawn ("suggests", "conveys"), not a subject term named.
    ['analysis_any', f.analysis.count > 0],
    ['analysis', met('analysis')],
    ['context_any', f.outside.count > 0],
    ['context', met('context')],
    ['provenance', f.provenance.count > 0],
    ['provenance_used', met('provenance')],
    ['judgement', f.judgement.count > 0],
    ['judgement_reached', judgement.final.length > 0],
    ['judgement_qualified', judgement.qualified],
    ['judgement_supported', judgement.substantiated],
    ['dialogue', f.dialogue.count > 0],
    ['dialogue_punctuated', f.dialogue.count > 0 && punctuatedShare(f) >= 0.5],
    ['description', met('description')],
    ['turning', f.change.count > 0],
    ['turning_shown', lateChanges(ctx).length > 0 && met('turning')],
    // a report's Method section with something under it: "No method." is untrue of it
    ['method_section', inSection(ctx.doc, METHOD_SECTION).length > 0],
  ];
  return closeFacts(measured);
}
