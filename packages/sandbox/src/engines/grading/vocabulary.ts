// Word lists of the grader: kept apart so the logic stays readable.

export const STOP = new Set(
  `a about above after again against all also am an and any are as at be because been before being
below between both but by can could did do does doing down during each either etc even ever every few for from
further had has have having he her here hers herself him himself his how however i if in into is it its itself just
least less let like made make makes many may me more most much must my myself no nor not now of off on once one only
or other others our ours ourselves out over own per quite rather really same shall she should so some such than that
the their theirs them themselves then there these they this those through thus to too under until up upon us very
was we well were what when where whether which while who whom whose why will with within without would yet you your
yours yourself yourselves`.split(/\s+/),
);

/**
 * Words that describe marking or the craft of writing rather than the topic. "States a clear
 * position on school uniforms, supported by evidence" should look for "school" and "uniforms" in
 * the answer; "position" and "evidence" are checked through signals (a stated view, examples,
 * figures), and telling a student that the answer "does not mention 'thesis'" would mislead.
 */
export const FILLER = new Set(
  `able accurate accurately adequate adequately answer answers apply applies appropriate
appropriately aspect aspects attempt attempts award awarded band basic candidate candidates clear clearly competent
complete completely consistent consistently convincing convincingly criteria criterion demonstrate demonstrates
demonstrated demonstrating detail detailed develop developed developing effective effectively element elements
emerging excellent exceeds excellent exemplary fair fairly full fully generally good great include includes including
insightful level levels limited little mark marks meets minimal mostly needs none occasional occasionally outstanding
overall partial partially point points poor poorly present presents proficient relevant reader response responses
satisfactory score scores secure show shows shown showing some sometimes strong strongly student students sufficient
task thorough thoroughly use used uses using weak well writer writing work
analyse analyses analysis analyze argue argument arguments audience body claim claims coherence coherent cohesion
conclusion conclusions consider considers content conventions correct correctly counter counterargument counterarguments
describe describes discuss discusses discussed errors evaluate evaluates explore explores identify identifies
evidence example examples explain explained explains explanation fact facts fluency grammar idea ideas introduction
justify knowledge language linked logical logically main mechanics opinion opposing organisation organisations
organization organized organised paragraph paragraphs position precise provide provides punctuation purpose quotation
quotations quote quotes reason reasoning reasons register sentence sentences spelling stance state stated states
structure structured style support supported supporting supports thesis tone transition transitions understanding
varied variety vocabulary
academic accuracy across address addressed answered appear appears apt arguable arguing assertion assertions based
bolted choice choices chosen closely comment comments communication complete compelling confident controlled convincing
create creates deepen deliberately development discernible distinctive drift drive drives early effect effects end
engaging error essay essays expression few flat fluent follow formal free frequent given guide guides hard hinder hold
holds identifiable implied including incomplete inference inferences informal interpretation judgement late least line
link links long loosely mentioned minor missing obscure occasional omissions one opening order original over pacing
partly perceptive persuasive piece pieces place places plain predictable purposeful real rebut rebutted refer repeat
repeats repetitive retell retells return returns several shape shaped sharpened short side sides simple slips specific
steps story stories strongest study studying subject substantiated sustain sustained take technique techniques
terminology thin thoughtful three throughout two uneven unexplained vague virtually vivid voice woven word words write
writes written year meaning prove proves view views
held left suited named issue reaches draws says test confirm challenge ignored nature origin built around build`.split(/\s+/),
);

/**
 * Words a question paper uses to set the task, not to name its topic: instructions ("read the
 * statement below", "identify"), the form and audience asked for ("a letter to your head
 * teacher"), kinds of evidence ("statistics or expert views") and exam furniture ("time allowed:
 * 60 minutes", "Spring Term"). An answer on the topic need not use any of them.
 */
export const INSTRUCTION = new Set(
  `read reading below above following statement statements identify identifies find finds
convincing convince write writes letter letters head headteacher format body plan planning begin beginning allowed
minutes minute hours total section sections instructions instruction full term spring autumn summer-term statistics
statistic expert experts between include refer debate persuade persuasive agree disagree whether explain describe
discuss paper end questions marks mark time addressed`.split(/\s+/),
);

/**
 * The obvious synonyms a student uses for a question's key terms: "mandatory" for "compulsory",
 * "abolish" for "ban", "mobile" for "phone". Word forms are matched by stem; these are the
 * different words. A group of words ("dress code") is found when all its words are.
 */
export const SYNONYMS: string[][] = [
  ['compulsory', 'mandatory', 'obligatory', 'required', 'require', 'requirement', 'enforced', 'forced'],
  ['ban', 'banned', 'banning', 'prohibit', 'prohibited', 'forbid', 'forbidden', 'abolish', 'abolished', 'scrap', 'outlaw'],
  ['homework', 'worksheets', 'worksheet', 'coursework'],
  ['uniform', 'uniforms', 'blazer', 'blazers', 'dress code'],
  ['phone', 'phones', 'mobile', 'mobiles', 'smartphone', 'smartphones', 'cellphone'],
  ['child', 'children', 'kids', 'kid', 'teenager', 'teenagers', 'youngsters', 'adolescents', 'young people'],
  ['parent', 'parents', 'family', 'families', 'mum', 'dad', 'carers', 'guardians'],
  ['lonely', 'loneliness', 'alone', 'isolated', 'isolation', 'solitary', 'solitude'],
  ['useful', 'usefulness', 'valuable', 'reliable', 'reliability'],
  ['volunteer', 'volunteered', 'volunteering', 'enlist', 'enlisted', 'recruit', 'recruited', 'recruitment'],
  ['poster', 'posters', 'advert', 'advertisement', 'propaganda'],
  ['sixteen', '16', '16s'],
  ['clothes', 'clothing', 'outfit', 'outfits', 'fashion'],
];

/**
 * Words of school writing that SCOWL's lists up to size 60 (spelling.ts) leave out, accepted as
 * spelt: found missing on the labelled answers and the examples, and in British school use.
 */
export const ACCEPTED_WORDS: ReadonlySet<string> = new Set(
  `app apps maths wellbeing wifi grandad grandads nan nans o'clock swamper bunkhouse cyberbullying
online email emails`.split(/\s+/),
);
