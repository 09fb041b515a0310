// The patterns the grader finds in an answer's sentences: kinds of support, explanation, analysis,
// an opposing view and its reply, the writer's position, links, a conclusion, and for stories
// change, detail and speech. Kept apart from the counting (features.ts) so each stays readable.

export const EXAMPLE =
  /\b(?:for example|for instance|such as|e\.g\.|to illustrate|a case in point|in particular|at my (?:old |primary |last |previous )?school|my (?:cousin|friend|brother|sister|mum|mom|dad|mother|father|parents|aunt|uncle)(?:['’]s)? (?:spent|paid|bought|said|told|was|had|has|works|found)|when i was|i have seen|in my experience)\b/gi;
/** A source named; "these figures show", "this research" point back at support already given (EXPLAIN), not more support. */
export const SOURCE =
  /\b(?:according to|a (?:study|survey|report|poll)|(?<!\b(?:this|these|those) )(?:studies|surveys|research(?:ers)?|statistics)|evidence from|(?<!\b(?:these|those|such|the) )figures show|found that|reported that|estimated that|historians? (?:have|argue|show)|experts?)\b/gi;
/** A sum, a share, a year or a number; not a clock time ("at 8:30 in the morning" sets a scene, it supports nothing). */
export const FIGURE =
  /(?:[£$€]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:%|per ?cent|pounds|dollars|million|thousand|hundred))|\b(?:1[5-9]|20)\d\d\b|\b(?<!\d:)\d{2,}(?:,\d{3})*\b(?!:\d)|\b(?:(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|a) )?(?:hundred|thousand|million) (?:pounds|dollars|euros|students|pupils|people|families|schools)\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[ -](?:one|two|three|four|five|six|seven|eight|nine))? (?:pounds|dollars|euros|per ?cent|out of (?:one|two|three|four|five|six|seven|eight|nine|ten)|(?:hours|minutes) (?:a|per|each) (?:day|week|night)|days (?:a|per|each) week)\b/gi;
/**
 * What a piece of support shows, said of it: "this shows", and as students also write it, with the
 * support named ("these figures prove", "this evidence suggests"), "it is clear from this that",
 * "this is evidence that". The verb agrees with its subject ("this mean teacher" says nothing of
 * support). A sentence that opens "That shows" points back; "a survey that shows" reports.
 */
export const EXPLAIN =
  /\b(?:(?:the|my|our) (?:results?|data|figures|numbers|measurements|readings|findings|table|graph) (?:shows?|suggests?|proves?|demonstrates?|indicates?|reveals?|confirms?)|this (?:(?:evidence|figure|statistic|number|data|survey|study|research|example|fact|quotation|quote|result|finding|incident|story|source|detail|percentage|line|case) )?(?:shows|means|suggests|proves|demonstrates|illustrates|indicates|implies|reveals|confirms|tells us|makes (?:it )?clear)|(?:these|those) (?:(?:figures|statistics|numbers|data|surveys|studies|examples|facts|quotations|quotes|results|findings|incidents|stories|sources|details|percentages|lines|cases) )?(?:show|mean|suggest|prove|demonstrate|illustrate|indicate|imply|reveal|confirm|tell us|make (?:it )?clear)|this (?:matters|is because|is why|makes|tells|leads to)|which (?:means|shows|suggests|makes|tells|leads to|proves|demonstrates|illustrates|indicates|implies|reveals|confirms)|that means|because|therefore|as a result|so that|in other words|this is important|that is why|consequently|thus|it follows that|explains why|for this reason|in turn|means that|it is (?:clear|obvious|evident) (?:from (?:this|these \w+) )?that|(?:from this|this tells us|here) we (?:can )?see|in this way|this is (?:evidence|proof|a sign) (?:that|of)|as (?:this|these \w+) shows?)\b|^that (?:shows|means|suggests|proves|demonstrates|illustrates|indicates)\b|, so (?=\w)/gi;
/** Support named by the explanation that says what it shows ("The results show that", "these figures prove"): the support may be in the paragraph before, as a report's Results before its Conclusion. */
export const NAMED_SUPPORT =
  /\b(?:the|these|those|my|our) (?:results?|data|figures|numbers|measurements|readings|findings|table|graph|statistics)\b/i;
export const ANALYSIS =
  /\b(?:suggests?|implies|implying|conveys?|emphasi[sz]es|symboli[sz]es|represents|reveals|portrays|presents|depicts|reflects|foreshadows|highlights|reinforces|evokes|creates? a sense|stresses|mirrors|exposes|signals|underlines)\b/gi;
export const TERMS =
  /\b(?:metaphors?|similes?|imagery|symbol(?:s|ism|ic)?|foreshadow(?:s|ing)?|dialogue|setting|structur(?:e|al|ally)|cyclical|narrat(?:ive|or)|juxtapos\w*|pathetic fallacy|dialect|motifs?|tone|characteri[sz]ation|repetition|repeated|monosyllabic|verbs?|adjectives?|nouns?|pronouns?|tragedy|tragic|irony|ironic|contrast(?:s|ed)?|personification|alliteration|rhetorical|chapter|opening|ending|propaganda|provenance|bias(?:ed)?|purpose|audience|context)\b/gi;
/**
 * A view the writer gives to others: the opposing view. "about" after the verb is a debate or a
 * worry mentioned ("Many people argue about uniforms", "Some students worry about what others
 * think"), not a side: a worry about the topic itself is found by TOPICAL_WORRY (replies.ts).
 */
export const COUNTER =
  /\b(?:critics|opponents|some (?:(?!i\b|we\b|you\b)\w+ ){0,2}(?:say|argue|think|believe|claim|feel|insist|point out|worry|may|might|would|will|could|hate|dislike|complain|object|find|(?:do not|don['’]t) like)\b(?! about\b)|(?:many|most|other) (?:people|parents|teachers|students|adults) (?:say|argue|think|believe|claim|feel|insist|worry)\b(?! about\b)|(?:teachers|parents|adults) (?:often |usually |may |might |will )?(?:(?:say|argue|claim|insist)\b(?! about\b)|believe that)|others (?:argue|say|claim|believe|think)|people who (?:like|support|oppose|disagree|want)|(?:it|this) (?:could|might|may) be argued|it is (?:often )?(?:said|argued|claimed) that|on the other hand|admittedly|it is true that|(?:supporters|defenders|fans|advocates) (?:of\b|(?:often |also |may |might |will )?(?:say|argue|claim|insist|believe|think|point out)\b)|not (?:everyone|everybody|all (?:people|parents|students|teachers|families)) (?:likes?|agrees?|wants?|supports?|thinks?|believes?|feels?|(?:is|are) (?:happy|convinced))\b|the other side|some argue|those who (?:\w+ )?(?:say|argue|think|believe|claim|feel|insist|oppose|support|disagree|want|like|prefer|dislike|hate|object|defend|criticise|criticize)\b|you (?:might|may|could) (?:think|say|argue)|one argument (?:for|against)|the (?:main|strongest|usual|biggest|most common|most popular) (?:argument|objection) (?:for|against)|(?:main|strongest|biggest|usual|most common) (?:point|objection|criticism|case) against)/i;
/** "Some parents worry about the cost of uniforms": a worry whose object (captured) is a view on the topic when it names the question's words. */
export const TOPICAL_WORRY =
  /\b(?:some|many|most|other) (?:(?!i\b|we\b|you\b)\w+ ){0,2}(?:worry|worries|are worried|are concerned|complain) about ((?:[\w'’-]+ ){0,4}[\w'’-]+)/i;
/** A reply to it: in the sentence itself, later in its paragraph, or opening the next (replies.ts, repliesTo). */
export const REBUT =
  /\b(?:however|but|yet|still|even so|nevertheless|nonetheless|this ignores|this overlooks|this is not|does not mean|while this|although this|i (?:disagree|do not agree|don['’]t agree|understand|accept|see why|can see|would (?:answer|reply|argue|say)|still (?:think|believe|feel)|think|believe)|in reply|the answer (?:is|to this)|(?:this|that) (?:may|might|could) be (?:true|so)|(?:this|that|their) (?:argument|view|point|claim|worry) (?:ignores|overlooks|misses|forgets|fails)|what they (?:forget|ignore|miss)|the real (?:solution|answer|problem)|in fact|moreover|instead|on the contrary|even if|(?:the|these|those|such|their) (?:objections?|concerns?|criticisms?|worries) (?:argue for|call for|point to|can be (?:answered|met|solved|addressed)|are (?:answered|met|solved|addressed)))\b/i;
/**
 * A negation ("not", "never", "isn't"). "cannot", "not allowed", "not every", "do not have" say what
 * someone is kept from or lacks: the stuff of an objection, not a reply to it.
 */
export const NEGATION =
  /\b(?:(?<!\b(?:can|could) )not(?! (?:only|allowed|able|afford|counting|including|enough|every|all|everyone|everybody|have)\b)|never|no(?! one\b| doubt\b| longer\b| money\b| choice\b)|(?:is|are|was|were|did|would|should|wo)n['’]t|(?:do|does)n['’]t(?! have\b))\b/i;
/**
 * A reply without a marker word (replies.ts): a dismissal ("Students simply find other targets",
 * "In reality…"), a negation of the view itself ("That is not what happens") or an "X, not Y".
 */
export const DENIAL = new RegExp(
  [
    String.raw`\b(?:simply(?! (?:cannot|can['’]t|could not|couldn['’]t|do(?:es)? not have|don['’]t have|have no)\b)|in reality|in practice|rarely|seldom|hardly ever)\b`,
    String.raw`^actually\b`,
    String.raw`^(?:that|this|which|such \w+|none of (?:this|that|these))\b.*${NEGATION.source}`,
    String.raw`^it\b.*${NEGATION.source}.*\b(?:true|the case|correct|what happens)\b`,
    String.raw`\w, not\b(?! (?:only|counting|including|every|all)\b)`,
  ].join('|'),
  'i',
);
/** Or a way out: "The school could run a second-hand shop", "Students can express themselves in other ways". */
export const REMEDY =
  /\b(?:(?:can|could|might|would)(?: (?:easily|simply|still|also|just))? (?:solve|fix|address|tackle|answer|avoid|prevent|reduce|lower|cut|ease|run|set up|organi[sz]e|offer|provide|sell|buy|lend|donate|swap|share|hand down|allow|let|subsidi[sz]e|pay for|cover|choose|express|wear|be (?:solved|fixed|avoided|reduced|lowered|met|answered|bought|shared|handed down|sold))|(?:many |plenty of |lots of )?other ways)\b/i;
/** What grants the view and answers nothing ("These concerns are real", "Such worries are understandable"). */
export const CONCESSION =
  /\b(?:(?:is|are|was|were|seems?) (?:(?!not\b)\w+ )?(?:real|understandable|fair|valid|true|reasonable|serious|important|natural|right)|(?:is|are) not (?:wrong|unreasonable|silly|unfair)|deserves?|nobody wants|no one wants|of course|granted|to be fair|feels? (?:this|that|it) strongly)\b/i;
/** What goes on reporting the view ("They also say…", "Others argue…", "Critics also point out…"): more of it, not a reply. */
export const REPORTING =
  /^(?:[\w'’]+ ){0,4}?(?:also |too |even |further )?(?:say|says|said|argue|argues|argued|claim|claims|point out|points out|add|adds|worry|worries|believe|believes|think|thinks|feel|feels|insist|insists|complain|complains|suggest|suggests)\b|\b(?:they|others|critics|opponents|supporters|some|many|most|parents|families|teachers|people|students)\b[^.;:]{0,40}\b(?:cannot|can['’]t|could not|couldn['’]t|are not able|are unable)\b/i;
export const POSITION =
  /\b(?:i (?:\w+ly |do )?(?:believe|think|argue|feel|am convinced|would argue|urge|ask|recommend|agree|disagree|support|oppose)|i (?:am|['’]m) (?:strongly |firmly )?(?:for|against|in favour of|opposed to|convinced)|i (?:do not|don['’]t|cannot|can['’]t) (?:think|believe|agree|support)|in my (?:view|opinion)|(?:should|must|ought to)(?:n['’]t| not| never| definitely| certainly| all| be allowed to| no longer)? (?!i\b|we\b|you\b|they\b|he\b|she\b|it\b)[a-z]+|i am writing to (?:urge|ask|argue|say|request|propose)|this essay (?:argues|will argue)|is (?:useful|not useful|limited)|(?:presents|portrays|shows|uses) [\w\s'’]{0,40}\bas\b)/i;
/**
 * A reading of a text put as what its author does ("Steinbeck shows that loneliness destroys
 * people", "Priestley's play suggests that"): the writer's position in an essay on a text. Case
 * counts: the author is a name, not "This shows that" or "The source shows that", which report.
 */
export const AUTHOR_VIEW =
  /\b(?!(?:This|That|These|Those|It|He|She|They|We|You|I|The|There|Here|What|Which|Source|Sources|Figure|Table|Chart|Graph|Evidence|Research|Data)\b)[A-Z][a-z]+(?:['’]s [a-z]+)? (?:[a-z]+ly )?(?:shows|suggests|reveals|implies|argues|conveys|makes (?:it )?clear|wants (?:us|the reader|readers) to (?:see|understand|feel)) (?:us |the reader |readers |the audience )?that\b/;
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
/**
 * A reason given with the position: "because", "since", a list of reasons, a colon, each before
 * words of its own: ", and that is my view" and ", and I will explain why" promise a reason, giving none.
 */
export const REASONS =
  /\b(?:because|since|as it|so that)\b(?! of (?:this|that|these|the following)\b)|,(?!\s*(?:and|but|or)\b)[^,]+\band\b|:\s+\S/i;
/**
 * A reason given without a marker in the next sentence: a pronoun for the position's subject and
 * something said of it ("They are itchy and uncomfortable"); the pronoun, a contracted verb and its verb (groups 1-3) are
 * checked against the position in features.ts. "This is my opinion" says nothing of it.
 */
export const REASON_NEXT =
  /^(they|these|those|it|this)(['’](?:s|re))?(?: (?:also|all|really|often|just|only|simply|even|never|always|usually|still))? (?!(?:is|are|was|were) (?:my|what|why|how|the (?:question|reason)|a question)\b)([a-z'’]+)(?: [\w'’£$€%-]+)+/i;
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
/** Words in either case at their start or all through ("Basically", "OK"): SLANG has no i flag, for "u" and "ur" only in lower case. */
const eitherCase = (words: string) => words.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
/**
 * Casual words. "u" and "ur" only in lower case and on their own ("U.S." and "U.K." are countries);
 * "cool" only approving ("so cool", "is cool", "that's cool"), never of temperature ("keeps students cool").
 */
export const SLANG = new RegExp(
  [
    `\\b(?:${eitherCase('stuff|loads|kinda|gonna|wanna|gotta|lol|tbh|cos|coz|cuz|ok|okay|yeah|awesome|super|basically|literally|kids|mum says|my mum|comfy')})\\b`,
    String.raw`(?<![\w.'’-])ur?(?![\w'’-]|\.\w)`,
    `(?<=\\b${eitherCase("(?:so|really|pretty|super|very|well|dead|kinda|is|are|was|were|looks?|looked|seems?|sounds?|(?:that|it)['’]s)")}\\s+)${eitherCase('cool')}\\b`,
    `\\b${eitherCase('cool')}(?=\\s*!)`,
  ].join('|'),
  'g',
);
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
