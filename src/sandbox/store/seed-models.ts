// The marking models a new sandbox starts with. Rubrics are written as a teacher would write
// them, because the grader reads descriptions and level descriptors to mark against them.
import type { GradeRubric } from '../engines/jobs.js';

export interface SeedModel {
  model_id: number;
  owner: string | null;
  org: string | null;
  assignment_name: string;
  assignment_desc: string;
  question_text: string;
  post_status: 'ready' | 'training';
  cum_method: 'sum' | 'average';
  total_score: number;
  rubrics: GradeRubric[];
}

/** A criterion with its max_score written once: its four levels fall at the maximum, 70 %, 40 % and 0. */
function criterion(item: string, max_score: number, description: string, levels: [top: string, good: string, developing: string, beginning: string]): GradeRubric {
  const [top, good, developing, beginning] = levels;
  return {
    item,
    max_score,
    description,
    levels: [
      { score: max_score, descriptor: top },
      { score: Math.round(max_score * 0.7), descriptor: good },
      { score: Math.round(max_score * 0.4), descriptor: developing },
      { score: 0, descriptor: beginning },
    ],
  };
}

const PERSUASIVE: Omit<SeedModel, 'model_id' | 'owner' | 'org'> = {
  assignment_name: 'Persuasive essay: school uniforms',
  assignment_desc:
    'Year 9 persuasive writing: an essay addressed to the school board arguing for or against compulsory school uniforms.',
  question_text:
    'Should students at our school be required to wear a uniform? Write a persuasive essay of 400 to 600 words addressed to the school board. Take a clear position, support it with at least two pieces of evidence or examples, and answer the strongest argument on the other side.',
  post_status: 'ready',
  cum_method: 'sum',
  total_score: 20,
  rubrics: [
    criterion('Thesis & position', 5, 'States a clear, arguable position on compulsory school uniforms early on and holds it to the end.', [
      'Precise, arguable thesis in the opening; the position is sustained and sharpened in the conclusion.',
      'Clear position stated early and held throughout, with minor drift.',
      'A position is given but is vague, late, or only implied in places.',
      'No identifiable position on uniforms.',
    ]),
    criterion('Evidence & reasoning', 6, 'Supports the position with relevant evidence (facts, examples, expert views) and explains how it proves the point; answers the strongest counter-argument.', [
      'Two or more well-chosen pieces of evidence, each explained; the counter-argument is stated fairly and rebutted.',
      'Relevant evidence with some explanation; the counter-argument is mentioned but only partly answered.',
      'Evidence is thin, general, or left unexplained; no real counter-argument.',
      'Assertions only, with no evidence.',
    ]),
    criterion('Organisation', 5, 'Introduction, body paragraphs with one main idea each, and a conclusion; transitions guide the reader.', [
      'Logical paragraphing, purposeful transitions, and a conclusion that returns to the thesis.',
      'Clear structure with occasional weak links between paragraphs.',
      'Some paragraphing, but ideas repeat or appear out of order.',
      'No discernible structure.',
    ]),
    criterion('Language & conventions', 4, 'Persuasive, formal register for the school board; accurate spelling, punctuation and grammar.', [
      'Confident persuasive techniques in a formal register; virtually error-free.',
      'Mostly formal and accurate; a few slips that do not hinder meaning.',
      'Informal in places; frequent errors that sometimes obscure meaning.',
      'Errors make the writing hard to follow.',
    ]),
  ],
};

const MICE_AND_MEN: Omit<SeedModel, 'model_id' | 'owner' | 'org'> = {
  assignment_name: 'Literary analysis: Of Mice and Men',
  assignment_desc: 'GCSE English Literature: an analytical essay on loneliness in John Steinbeck\'s Of Mice and Men.',
  question_text:
    'How does Steinbeck present loneliness in Of Mice and Men? Refer closely to at least two characters (for example Crooks, Candy or Curley\'s wife) and to the methods Steinbeck uses.',
  post_status: 'ready',
  cum_method: 'average',
  total_score: 10,
  rubrics: [
    criterion('Interpretation & argument', 10, 'A clear, perceptive argument about how loneliness is presented, developed across the essay.', [
      'A convincing, original line of argument sustained throughout.',
      'A clear argument with some development.',
      'A simple response that retells more than it argues.',
      'No argument about loneliness.',
    ]),
    criterion('Use of textual evidence', 10, 'Short, well-chosen quotations and references embedded in the argument.', [
      'Precise, embedded quotations that drive each point.',
      'Relevant quotations, sometimes over-long.',
      'Few references, loosely linked to points.',
      'No reference to the text.',
    ]),
    criterion('Analysis of language & method', 10, 'Explains how Steinbeck\'s choices (setting, dialogue, symbolism, structure) create meaning, using subject terminology.', [
      'Analyses the effect of specific methods with apt terminology.',
      'Explains some methods and their effects.',
      'Identifies methods without explaining effects.',
      'No comment on methods.',
    ]),
    criterion('Context & themes', 10, 'Links loneliness to the Great Depression, itinerant ranch work, race and gender in 1930s America.', [
      'Context woven into the analysis to deepen the argument.',
      'Relevant context linked to the text.',
      'Context bolted on or general.',
      'No context.',
    ]),
    criterion('Structure & expression', 10, 'Organised paragraphs, academic register, accurate spelling, punctuation and grammar.', [
      'Fluent, well-organised and accurate.',
      'Clear and mostly accurate.',
      'Uneven organisation; frequent errors.',
      'Hard to follow.',
    ]),
  ],
};

const LAB_REPORT: Omit<SeedModel, 'model_id' | 'owner' | 'org'> = {
  assignment_name: 'Lab report: photosynthesis',
  assignment_desc: 'Year 10 biology: a report on how light intensity affects the rate of photosynthesis in pondweed.',
  question_text:
    'Write up your investigation into the effect of light intensity on the rate of photosynthesis in Elodea, including a hypothesis, method, results table and graph, and a conclusion with an evaluation.',
  post_status: 'training',
  cum_method: 'sum',
  total_score: 24,
  rubrics: [
    criterion('Hypothesis', 6, 'A testable prediction with a scientific reason.', ['Testable and justified with biology.', 'Testable, partly justified.', 'Vague prediction.', 'None.']),
    criterion('Method', 6, 'Variables identified and controlled; repeatable steps.', ['All variables controlled; fully repeatable.', 'Most variables controlled.', 'Steps missing.', 'No method.']),
    criterion('Results & data', 6, 'Clear table with units; appropriate graph.', ['Complete table and accurate graph.', 'Minor omissions.', 'Incomplete data.', 'No data.']),
    criterion('Conclusion & evaluation', 6, 'Conclusion linked to data; sources of error and improvements.', ['Data-based conclusion and thoughtful evaluation.', 'Conclusion with some evaluation.', 'Conclusion not linked to data.', 'None.']),
  ],
};

const SOURCE_ANALYSIS: Omit<SeedModel, 'model_id' | 'owner' | 'org'> = {
  assignment_name: 'History source analysis',
  assignment_desc: 'Year 10 history: evaluating a 1914 British recruitment poster as evidence of why men volunteered.',
  question_text:
    'Study Source A, a British recruitment poster from 1914 ("Your Country Needs You"). How useful is Source A to a historian studying why men volunteered to join the British Army in 1914? Explain your answer using Source A and your own knowledge.',
  post_status: 'ready',
  cum_method: 'sum',
  total_score: 20,
  rubrics: [
    criterion('Provenance', 5, 'Uses who made the source, when and why to judge its usefulness.', ['Nature, origin and purpose all used to judge usefulness.', 'Provenance described and partly used.', 'Provenance mentioned only.', 'Ignored.']),
    criterion('Content & inference', 5, 'Draws inferences from what the source shows and says.', ['Several supported inferences.', 'One clear inference.', 'Describes content only.', 'No use of content.']),
    criterion('Own knowledge & context', 6, 'Uses accurate knowledge of 1914 (patriotism, Pals battalions, propaganda, unemployment) to test the source.', ['Precise knowledge used to confirm or challenge the source.', 'Relevant knowledge, partly applied.', 'General knowledge, not applied.', 'None.']),
    criterion('Judgement & communication', 4, 'Reaches a substantiated judgement on usefulness in a well-organised answer.', ['Clear, substantiated judgement.', 'Judgement with some support.', 'Assertion only.', 'No judgement.']),
  ],
};

const NARRATIVE: Omit<SeedModel, 'model_id' | 'owner' | 'org'> = {
  assignment_name: 'Narrative writing: a turning point',
  assignment_desc: 'Year 8 creative writing: a short story about a moment that changed everything for a character.',
  question_text: 'Write a short story (500 to 800 words) in which a character reaches a turning point. Show the change through action, dialogue and detail rather than telling it.',
  post_status: 'ready',
  cum_method: 'sum',
  total_score: 20,
  rubrics: [
    criterion('Ideas & content', 6, 'An engaging plot built around a believable turning point.', ['Original and compelling.', 'Clear and engaging.', 'Predictable or thin.', 'Off task.']),
    criterion('Structure', 4, 'A shaped story: opening, build-up, turning point, resolution.', ['Deliberately shaped for effect.', 'Clear sequence.', 'Uneven pacing.', 'No shape.']),
    criterion('Voice & style', 5, 'Vivid description, purposeful dialogue and varied sentences.', ['Distinctive voice; precise vocabulary.', 'Some vivid choices.', 'Plain and repetitive.', 'Flat.']),
    criterion('Conventions', 5, 'Accurate spelling, punctuation (including dialogue) and grammar.', ['Virtually error-free.', 'Minor errors.', 'Frequent errors.', 'Hard to read.']),
  ],
};

export const SEED_ORGANIZATION = 'Northfield Academy';

export const SEED_MODELS: SeedModel[] = [
  { model_id: 12, owner: 'user', org: null, ...PERSUASIVE },
  { model_id: 13, owner: 'user', org: null, ...MICE_AND_MEN },
  { model_id: 14, owner: 'user', org: null, ...LAB_REPORT },
  { model_id: 15, owner: 'broke', org: null, ...PERSUASIVE },
  { model_id: 21, owner: null, org: SEED_ORGANIZATION, ...SOURCE_ANALYSIS },
  { model_id: 31, owner: 'org_member', org: null, ...NARRATIVE },
];
