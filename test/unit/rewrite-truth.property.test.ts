// `kct rewrite` keeps feedback true (a teacher's walkthrough found "Shows: an opening …" rewritten
// as a sentence quoting the conclusion): the sandbox grader's feedback on generated answers, in its
// three styles, rewritten in every style under every mix of instructions. Every quotation in the
// rewrite is one of the original's, the answer's quotation stays with the finding it was offered
// for, whole; nothing is claimed (read with the feature vocabulary) that the original did not
// claim; a score stated is the section's. fast-check, seeded (KCT_PROPERTY_RUNS, KCT_PROPERTY_SEED).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewrite } from '../../packages/sandbox/src/engines/feedback-rewrite.js';
import { type GradeInput, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { readClaims } from '../../packages/sandbox/src/engines/grading/claims.js';
import type { Judgement } from '../../packages/sandbox/src/engines/grading/judgement.js';
import { lacks, shownBy } from '../../packages/sandbox/src/engines/grading/phrases.js';
import { answer, KNOWN, RUNS, rubric, SEED, SENTENCES } from './grader-arbitraries.js';
import { type Marking, seededModel } from './grader-helpers.js';

const STYLES = ['paragraph', 'short_sentences', 'bullet_points'] as const;
const INSTRUCTIONS = ['be encouraging', 'make it concise', 'speak to the student in second person', 'include the score'];
const instruction = fc.subarray(INSTRUCTIONS).map((xs) => xs.join(', and '));

/** Quotations, as written (“…”), outermost first. */
const quotations = (s: string) => s.match(/“[^“”]*”/g) ?? [];
/** A text with its asides in brackets left out, nested ones too, quotations kept whole. */
function withoutAsides(s: string): string {
  const saved: string[] = [];
  let t = s.replace(/“[^“”]*”/g, (m) => `\u0001${saved.push(m) - 1}\u0002`);
  for (let before = ''; before !== t; ) [before, t] = [t, t.replace(/\s*\([^()]*\)/g, '')];
  return t.replace(/\u0001(\d+)\u0002/g, (_m, i: string) => saved[Number(i)]);
}
/** A finding as compared: no asides, third person, plain spaces, no end stop, lower case. */
const plain = (s: string) =>
  withoutAsides(s)
    .replace(/\byour (answer|essay|response|work|writing)\b/gi, 'the $1')
    .replace(/\s+/g, ' ')
    .replace(/[\s.;,:)]+$/, '')
    .trim()
    .toLowerCase();

/** The text in the brackets a text opens with, to the one that closes them (quotations skipped). */
function bracketed(s: string): string {
  let depth = 0;
  let quoted = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '“') quoted++;
    else if (s[i] === '”') quoted--;
    else if (quoted === 0 && s[i] === '(') depth++;
    else if (quoted === 0 && s[i] === ')' && --depth === 0) return s.slice(1, i);
  }
  return s;
}

/** The finding a quotation of the answer is attached to in a rewrite, and whether it is offered as what the answer lacks. */
function attached(text: string, quote: string): { finding: string; lacking: boolean }[] {
  const out: { finding: string; lacking: boolean }[] = [];
  let at = text.indexOf(quote);
  while (at >= 0) {
    const after = text.slice(at + quote.length);
    const before = text.slice(0, at);
    // "“…” (shows X (its detail))" / "“…”, which shows X." / "“…”. This shows X." / "… shows X (“…”)"
    const bracket = /^ \((shows|lacks) /.exec(after);
    const next =
      /^(?:,? which shows|\)?\.? This shows|\)?\.?\n?-? This shows) (what it (?:lacks|could still add): |lacks )?([^\n]*?)(?:\.(?=\s+[A-Z0-9“(]|\s*$)|\)\.?\s*$|\n|$)/.exec(
        after,
      );
    // "… lacks X (its detail) (“…”)": the finding before the quotation, its asides left out
    const prior = /^[\s\S]*(?:^|[\s:,])(shows|lacks|could still add|could also add|Shows|Lacks|Still to add):? ([^\n]*?)\s*$/.exec(
      withoutAsides(before.replace(/\s*\($/, '')),
    );
    if (bracket) out.push({ finding: plain(bracketed(after.slice(1)).slice(bracket[1].length + 1)), lacking: bracket[1] === 'lacks' });
    else if (next) out.push({ finding: plain(next[2]), lacking: next[1] !== undefined });
    else if (prior) out.push({ finding: plain(prior[2]), lacking: !/^shows$/i.test(prior[1]) });
    else out.push({ finding: '', lacking: false });
    at = text.indexOf(quote, at + quote.length);
  }
  return out;
}

/**
 * What a text claims, sentence by sentence: after "lacks" (or its softened words) a phrase names
 * what is missing, and so does a sentence of detail after it ("0 pieces of support explained."), up
 * to the next line, "shows", or the next step.
 */
function claimed(text: string, details = new Set<string>()): Set<string> {
  const out = new Set<string>();
  const bare = text.replace(/“[^“”]*”/g, '“”');
  for (const line of bare.split('\n')) {
    let polarity: 'states' | 'lacks' = 'states';
    for (const sentence of line.split(/(?<=[.!?])\s+/)) {
      if (/^(?:- )?(?:(?:The )?[Nn]ext|For instance|From the answer)/.test(sentence)) polarity = 'states';
      // an aside of the original said as a sentence of its own is its detail, read there as no claim
      if (details.has(plain(sentence))) continue;
      const parts = sentence.split(/\b((?:it (?:also )?)?(?:lacks|could still add|could also add)|still to add|shows)\b/i);
      for (const part of parts) {
        if (/^(?:(?:it (?:also )?)?(?:lacks|could still add|could also add)|still to add)$/i.test(part)) polarity = 'lacks';
        else if (/^shows$/i.test(part)) polarity = 'states';
        else for (const c of readClaims(part, polarity)) out.add(c.map((x) => `${x.holds ? '' : 'no '}${x.feature}`).join(' or '));
      }
    }
  }
  return out;
}

/** The asides in brackets of a text, nested ones too, as compared. */
function asidesOf(s: string): Set<string> {
  const out = new Set<string>();
  let t = s.replace(/“[^“”]*”/g, '“”');
  for (let before = ''; before !== t; ) {
    before = t;
    t = t.replace(/\(([^()]*)\)/g, (_m, inner: string) => {
      for (const part of inner.split(/[;:]\s+|,\s+(?=but |so )/)) out.add(plain(part));
      out.add(plain(inner));
      return '';
    });
  }
  return out;
}

const fmt = (n: number) => String(Number(n.toFixed(2)));

/** Every check of one rewrite of one criterion's feedback. */
function check(j: Judgement, original: string, rewritten: string, where: string): void {
  const said = `${where}\n--- original\n${original}\n--- rewritten\n${rewritten}`;
  for (const q of quotations(rewritten)) expect(original, `${said}\n${q} is not the original's`).toContain(q);
  if (j.quote) {
    const quote = `“${j.quote.text}”`;
    const point = (j.quote.problem ? j.lacks : j.shows).find((p) => p.id === j.quote!.point)!;
    const finding = plain(j.quote.problem ? lacks(point.measured) : shownBy(point.measured, j.quote.part));
    for (const a of attached(rewritten, quote))
      expect(a, `${said}\n${quote} is offered for another finding`).toEqual({ finding, lacking: j.quote.problem });
  }
  const before = claimed(original);
  for (const c of claimed(rewritten, asidesOf(original))) expect(before, `${said}\nthe rewrite claims ${c}`).toContain(c);
  // A score said is the section's (or one the original said, as an earlier mark's)
  for (const m of withoutAsides(rewritten.replace(/“[^“”]*”/g, '“”')).matchAll(/(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)/g)) {
    if (m[0] === `${fmt(j.score)}/${fmt(j.max)}`) continue;
    expect(original, `${said}\n${m[0]} is not the section's score`).toContain(m[0]);
  }
  const score = /^(?:- )?Score: ([^\s]+)\.?$/m.exec(rewritten);
  if (score) expect(score[1].replace(/\.$/, ''), said).toBe(`${fmt(j.score)}/${fmt(j.max)}`);
}

function checkAll(m: Marking, text: string, style: GradeInput['style'], to: (typeof STYLES)[number], wish: string): void {
  const js = judgements({ ...m, answerText: text, style });
  const sections = grade({ ...m, answerText: text, style }).evaluation.map((e) => ({
    item: e.item,
    comment: e.feedback,
    score: e.score,
    max_score: e.max_score,
  }));
  const out = rewrite({ style: to, instruction: wish, sections }).sections;
  out.forEach((s, i) => check(js[i], sections[i].comment, s.comment, `${m.name}, ${style} → ${to} “${wish}”, ${s.item}\n${text}`));
}

/** The answer the walkthrough rewrote: an opening paragraph and a conclusion, the conclusion quoted. */
const UNIFORMS = `School uniforms should stay compulsory, because they make every student equal and save families money.

A 2019 survey at my school found that 64% of students felt less judged. This shows that the rule makes a real difference.

Critics argue that uniforms limit self-expression. However, students can still show who they are through their clubs, their hobbies and their work.

In conclusion, uniforms should stay, because they are fair, cheap and good for learning.`;

describe('a rewrite keeps the quotation with the finding it was offered for', () => {
  it('does not attach the quoted conclusion to "an opening paragraph" in short sentences', () => {
    const m = seededModel(12);
    const sections = grade({ ...m, answerText: UNIFORMS, style: 'Bullet' }).evaluation.map((e) => ({
      item: e.item,
      comment: e.feedback,
      score: e.score,
      max_score: e.max_score,
    }));
    const organisation = sections.find((s) => s.item === 'Organisation')!;
    // the conclusion quoted is offered for the conclusion only (grader-walkthrough-quotes.test.ts)
    expect(organisation.comment).toContain('(shows a conclusion in its last paragraph)');
    const out = rewrite({ style: 'short_sentences', target_item: 'Organisation', sections }).sections.find((s) => s.rewritten)!.comment;
    expect(out).not.toMatch(/shows an opening paragraph\./);
    expect(out).toContain('This shows a conclusion in its last paragraph.');
    for (const to of STYLES)
      for (const wish of ['', ...INSTRUCTIONS, INSTRUCTIONS.join(', ')])
        for (const style of ['Bullet', 'Short', 'Long'] as const) checkAll(m, UNIFORMS, style, to, wish);
  });

  it('"encouraging" softens what the answer lacks, never what the grader says of itself nor the answer’s words', () => {
    const comment =
      'It lacks enough explanation. From the answer: “Uniforms do not help, and she does not care.” (shows a position stated in the opening). (Sandbox grader: it measures features of the writing against the rubric’s wording; it does not judge the reasoning itself, and it leaves the top tenth of each criterion to a teacher.)';
    for (const to of STYLES) {
      const out = rewrite({ style: to, instruction: 'be encouraging', sections: [{ item: 'Argument', comment, score: 2, max_score: 5 }] })
        .sections[0].comment;
      expect(out, to).toMatch(/could still add enough explanation/i);
      expect(out, to).toContain('“Uniforms do not help, and she does not care.”');
      expect(out, to).toMatch(/it does not judge the reasoning itself/i);
      expect(out, to).not.toMatch(/could also judge/);
    }
  });

  it(`keeps every quotation, finding and score true, in every style and instruction (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        answer,
        fc.oneof(fc.constantFrom(...KNOWN), rubric),
        fc.constantFrom('Bullet', 'Short', 'Long' as const),
        fc.constantFrom(...STYLES),
        instruction,
        (text, m, style, to, wish) => checkAll(m, text, style, to, wish),
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`keeps quotations whole that hold brackets, semicolons, curly quotes and "does not" (seed ${SEED}, ${RUNS} runs)`, () => {
    const awkward = fc.constantFrom(
      'As our headteacher said, “a classroom is a place for ideas, not a fashion show,” and she does not change her mind.',
      'Uniforms (which cost £40 at the only shop in town) do not make anyone equal; they make families poorer.',
      'For example, my cousin’s school dropped its uniform in 2021 and a survey found that 64% of pupils did not miss it.',
      'In conclusion, uniforms should not be compulsory (and ties should go first), because they are unfair.',
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(awkward, fc.constantFrom(...SENTENCES.position, ...SENTENCES.evidence, ...SENTENCES.conclusion)), {
          minLength: 2,
          maxLength: 8,
        }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom('Bullet', 'Short', 'Long' as const),
        fc.constantFrom(...STYLES),
        instruction,
        (sentences, paragraphs, style, to, wish) => {
          const size = Math.ceil(sentences.length / paragraphs);
          const text = Array.from({ length: paragraphs }, (_, k) => sentences.slice(k * size, (k + 1) * size).join(' '))
            .filter(Boolean)
            .join('\n\n');
          checkAll(seededModel(12), text, style, to, wish);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
