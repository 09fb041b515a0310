// The patterns the grader finds in an answer's sentences: kinds of support, explanation, analysis,
// an opposing view and its reply, the writer's position, links, a conclusion, and for stories
// change, detail and speech. Kept apart from the counting (features.ts) so each stays readable.

export const EXAMPLE =
  /\b(?:for example|for instance|such as|e\.g\.|to illustrate|a case in point|in particular|at my (?:old |primary |last |previous )?school|my (?:cousin|friend|brother|sister|mum|mom|dad|mother|father|parents|aunt|uncle)(?:['’]s)? (?:spent|paid|bought|said|told|was|had|has|works|found)|when i was|i have seen|in my experience)\b/gi;
export const SOURCE =
  /\b(?:according to|a (?:study|survey|report|poll)|studies|surveys|research(?:ers)?|evidence from|statistics|figures show|found that|reported that|estimated that|historians? (?:have|argue|show)|experts?)\b/gi;
export const FIGURE =
  /(?:[£$€]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:%|per ?cent|pounds|dollars|million|thousand|hundred))|\b(?:1[5-9]|20)\d\d\b|\b\d{2,}(?:,\d{3})*\b|\b(?:(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|a) )?(?:hundred|thousand|million) (?:pounds|dollars|euros|students|pupils|people|families|schools)\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[ -](?:one|two|three|four|five|six|seven|eight|nine))? (?:pounds|dollars|euros|per ?cent|out of (?:one|two|three|four|five|six|seven|eight|nine|ten))\b/gi;
export const EXPLAIN =
  /\b(?:this (?:shows|means|suggests|proves|matters|is because|is why|makes|tells|implies|reveals|leads to)|which (?:means|shows|suggests|makes|tells|leads to)|that means|because|therefore|as a result|so that|in other words|this is important|that is why|consequently|thus|it follows that|explains why|for this reason|in turn|means that)\b|, so (?=\w)/gi;
export const ANALYSIS =
  /\b(?:suggests?|implies|implying|conveys?|emphasi[sz]es|symboli[sz]es|represents|reveals|portrays|presents|depicts|reflects|foreshadows|highlights|reinforces|evokes|creates? a sense|stresses|mirrors|exposes|signals|underlines)\b/gi;
export const TERMS =
  /\b(?:metaphors?|similes?|imagery|symbol(?:s|ism|ic)?|foreshadow(?:s|ing)?|dialogue|setting|structur(?:e|al|ally)|cyclical|narrat(?:ive|or)|juxtapos\w*|pathetic fallacy|dialect|motifs?|tone|characteri[sz]ation|repetition|repeated|monosyllabic|verbs?|adjectives?|nouns?|pronouns?|tragedy|tragic|irony|ironic|contrast(?:s|ed)?|personification|alliteration|rhetorical|chapter|opening|ending|propaganda|provenance|bias(?:ed)?|purpose|audience|context)\b/gi;
/** A view the writer gives to others: the opposing view. */
export const COUNTER =
  /\b(?:critics|opponents|some (?:\w+ ){0,2}(?:say|argue|think|believe|claim|feel|insist|point out|worry|may|might|would|will|could)\b(?! about\b)|(?:many|most|other) (?:people|parents|teachers|students|adults) (?:say|argue|think|believe|claim|feel|insist|worry)\b(?! about\b)|(?:teachers|parents|adults) (?:often |usually |may |might )?(?:say|argue|claim|insist|believe) that|others (?:argue|say|claim|believe|think)|people who (?:like|support|oppose|disagree|want)|(?:it|this) (?:could|might|may) be argued|it is (?:often )?(?:said|argued|claimed) that|on the other hand|admittedly|it is true that|(?:supporters|defenders|fans|advocates) of|the other side|some argue|those who|you (?:might|may|could) (?:think|say|argue)|one argument (?:for|against)|the (?:main|strongest|usual) argument (?:for|against))/i;
/** A reply to it: in the sentence itself, later in its paragraph, or opening the next (features.ts, repliesTo). */
export const REBUT =
  /\b(?:however|but|yet|still|even so|nevertheless|nonetheless|this ignores|this overlooks|this is not|does not mean|while this|although this|i (?:disagree|do not agree|don['’]t agree|understand|accept|see why|can see|would (?:answer|reply|argue|say)|still (?:think|believe|feel)|think|believe)|in reply|the answer (?:is|to this)|(?:this|that) (?:may|might|could) be (?:true|so)|(?:this|that|their) (?:argument|view|point|claim|worry) (?:ignores|overlooks|misses|forgets|fails)|what they (?:forget|ignore|miss)|the real (?:solution|answer|problem)|in fact|moreover|instead|on the contrary|even if|(?:the|these|those|such|their) (?:objections?|concerns?|criticisms?|worries) (?:argue for|call for|point to|can be (?:answered|met|solved|addressed)|are (?:answered|met|solved|addressed)))\b/i;
export const POSITION =
  /\b(?:i (?:\w+ly |do )?(?:believe|think|argue|feel|am convinced|would argue|urge|ask|recommend|agree|disagree|support|oppose)|i (?:am|['’]m) (?:strongly |firmly )?(?:for|against|in favour of|opposed to|convinced)|i (?:do not|don['’]t|cannot|can['’]t) (?:think|believe|agree|support)|in my (?:view|opinion)|(?:should|must|ought to)(?:n['’]t| not| never| definitely| certainly| all| be allowed to| no longer)? (?!i\b|we\b|you\b|they\b|he\b|she\b|it\b)[a-z]+|i am writing to (?:urge|ask|argue|say|request|propose)|this essay (?:argues|will argue)|is (?:useful|not useful|limited)|(?:presents|portrays|shows|uses) [\w\s'’]{0,40}\bas\b)/i;
/**
 * A verdict on something ("Uniforms are unfair", "a uniform is not a good idea"), its subject's last
 * three words captured: a position when the subject is the question's topic (features.ts).
 */
export const VERDICT =
  /\b((?:[a-z]+ ){0,2}[a-z]+) (?:is|are|was|were) (?:(?:not|really|very|clearly|definitely|simply|so|truly|just|quite) )*(?:good|bad|better|worse|fair|unfair|necessary|unnecessary|essential|harmful|beneficial|helpful|unhelpful|pointless|important|unimportant|wrong|right|a (?:good|bad|great|terrible|poor) idea|a mistake|a waste)\b/i;
/** A view hedged until it takes no side ("kind of ok but also not really"): not a clearly stated position. */
export const HEDGE =
  /\b(?:kind of|sort of|kinda|not really|hard to say|i (?:do not|don['’]?t) know|i['’]?m not sure|i guess|maybe|i suppose)\b/i;
/** "asked whether uniforms should stay": a position inside a question someone asked takes no side. */
export const INDIRECT = /\b(?:whether|if)\b/i;
/** A reason given with the position: "because", "since", a list of reasons, a colon. */
export const REASONS = /\b(?:because|since|as it|so that)\b|,[^,]+\band\b|:\s/i;
export const CONCLUSION =
  /^(?:in conclusion|to conclude|to sum up|in summary|overall|ultimately|all in all|to summari[sz]e|therefore|so overall|in the end|finally|for (?:all )?(?:these|this|those) reasons?|that is why|this is why)\b/i;
export const JUDGEMENT =
  /\b(?:useful|usefulness|reliable|reliability|valuable|value|limited|limitations?|limits?|to (?:some|a certain|a large) extent|partly|up to a point|only shows|does not (?:show|tell|explain)|cannot tell|on balance|depends on)\b/gi;
export const PROVENANCE =
  /\b(?:propaganda|purpose|published|produced|designed|made by|created by|commissioned|government|official|audience|origin|provenance|bias(?:ed)?|one-sided|primary source|at the time|intended to|aim was|was made to|reproduced)\b/gi;
export const CHANGE =
  /\b(?:suddenly|for the first time|at last|realis(?:e|ed)|realiz(?:e|ed)|decided|changed|never again|from then on|from that day|ever since|after that|turning point|everything changed|instead|for a long moment|for a moment|this time|learn(?:ed|t) (?:that|how|to)|promised (?:myself|her|him)|no longer|made up (?:my|his|her) mind)\b/gi;
export const SENSES =
  /\b(?:smell(?:ed|s)?|scent|taste(?:d)?|sound(?:ed)?|silence|hum(?:med)?|whisper(?:ed)?|crackl\w*|flicker\w*|glow\w*|bright|dark|cold|warm|wet|rough|soft|sharp|dust|rain|light|shadow|purple|orange|brown|grey|gray|yellow|white|black|green|blue|red|squeak\w*|thud\w*|trembl\w*|hiss\w*)\b/gi;
export const SIMILE = /\b(?:like a|like the|as if|as though|as \w+ as)\b/gi;
export const SPEECH = /\b(?:said|asked|replied|whispered|shouted|muttered|called|cried|answered|began|laughed|sighed|snapped|yelled)\b/i;
export const JUDGEMENT_QUALIFIED = /\b(?:however|but|although|limited|only|partly|less|extent|depends)\b/i;
export const JUDGEMENT_SUPPORTED = /\b(?:because|since|as it|which|so)\b/i;

const CONNECTIVES = [
  'first',
  'firstly',
  'second',
  'secondly',
  'third',
  'thirdly',
  'finally',
  'however',
  'furthermore',
  'moreover',
  'in addition',
  'on the other hand',
  'therefore',
  'in conclusion',
  'to conclude',
  'overall',
  'although',
  'consequently',
  'as a result',
  'similarly',
  'by contrast',
  'in contrast',
  'nevertheless',
  'meanwhile',
  'later',
  'afterwards',
  'the next day',
  'that night',
  'then',
  'structurally',
  'by the end',
  'from the opening',
  'at first',
  'to begin with',
  'another',
  'also',
  'additionally',
  'likewise',
  'despite',
  'while',
  'whereas',
  'my first',
  'my second',
  'my third',
  'my final',
  'my last',
  'the first',
  'the second',
  'the third',
  'for these reasons',
  'for this reason',
  'above all',
  'what is more',
  'besides',
  'in short',
  'still',
  'even so',
  'on top of that',
  'for example',
  'for instance',
  'as well as this',
];
export const CONNECTIVE_START = new RegExp(`^(?:${CONNECTIVES.map((c) => c.replace(/ /g, '\\s+')).join('|')})\\b`, 'i');
/** Links the advice suggests, in this order, leaving out those the answer already uses. */
export const SUGGESTED_LINKS = ['however', 'furthermore', 'as a result', 'in addition', 'consequently', 'on the other hand'];

/** Words that should carry an apostrophe ("dont"): a slip of punctuation, not of spelling. */
const UNMARKED_CONTRACTIONS =
  'dont|cant|wont|didnt|isnt|wasnt|doesnt|couldnt|shouldnt|wouldnt|im|ive|thats|theres|whats|hes|shes|theyre|youre|arent|havent|hasnt';
/** Contractions written without their apostrophe ("dont"): casual words as much as slips. */
export const UNMARKED_CONTRACTION = new RegExp(`\\b(?:${UNMARKED_CONTRACTIONS})\\b`, 'gi');
export const NO_APOSTROPHE = new RegExp(`\\b(?:${UNMARKED_CONTRACTIONS}|curleys|lennies|georges)\\b`, 'gi');
/** Slips of grammar made of real words, which a word list cannot see ("should of", "to much"). */
export const GRAMMAR =
  /\b(?:there own|are own|to hot|to cold|to much|to many|should of|could of|would of|must of|we was|they was|you was|me and my \w+ (?:went|was|were))\b/gi;
export const SLANG =
  /\b(?:stuff|loads|kinda|gonna|wanna|gotta|lol|tbh|cos|coz|cuz|u|ur|ok|okay|yeah|awesome|cool|super|basically|literally|kids|mum says|my mum|hoodies|comfy)\b/gi;
/** "n't", "'re", "'ve", "'ll", "'d", "'m", and "'s" after a pronoun or "that", "there", "let"...: "it's" is "it is"; a noun's "'s" ("John's") is possessive. */
export const CONTRACTION = /\b\w+['’](?:t|re|ve|ll|d|m)\b|\b(?:it|that|there|here|what|he|she|let|who|where|how|when|why)['’]s\b/gi;

export const PAST_IRREGULAR = new Set(
  `was were had did said went came saw took got made knew thought told felt left stood sat
ran found gave kept held heard brought began became caught drove fell threw wore won lost met paid sent spent`.split(/\s+/),
);
export const PRESENT = new Set(
  'is are am has have do does can will shall may must should need needs get gets goes says makes takes gives helps means'.split(' '),
);
/** Words ending in "ed" that are not past tenses. */
export const NOT_PAST = new Set(
  'need indeed speed seed feed bleed breed weed embed exceed proceed succeed red bed shed shred hundred sacred naked wicked'.split(' '),
);
/** Words too common to say that one sentence restates another. */
export const STOPS = new Set(
  'that this with they them their there then than when what which while have were been from your into also just like more most much some such very would could should will because about after before being other these those only even really'.split(
    ' ',
  ),
);

export const countOf = (re: RegExp, s: string) => (s.match(re) ?? []).length;
/** The first match of a pattern in a text, as it is written there. */
export function firstMatch(re: RegExp, text: string): string | undefined {
  const m = new RegExp(re.source, re.flags.replace('g', '')).exec(text);
  return m?.[0];
}
