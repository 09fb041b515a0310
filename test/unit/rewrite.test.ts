import { describe, expect, it } from 'vitest';
import { type RewriteSectionIn, rewrite } from '../../packages/sandbox/src/engines/feedback-rewrite.js';

const paragraph: RewriteSectionIn = {
  item: 'Evidence',
  score: 4,
  max_score: 10,
  comment:
    'The answer gives two examples about school uniforms, but it does not explain how they support the argument and it never uses figures or quotations to back up the claims. The student should add a statistic; the conclusion also needs a clearer link to the evidence. To improve, explain each example.',
};
const bullets: RewriteSectionIn = {
  item: 'Organisation',
  score: 4.5,
  max_score: 5,
  comment: '- Clear introduction and conclusion\n- Five paragraphs with one idea each\n- Linking words such as “however” and “therefore”',
};
const sections = [paragraph, bullets];
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
const sentenceList = (s: string) => s.split(/(?<=[.!?]["”)]?)\s+(?=["“(]?[A-Z])/).filter(Boolean);

describe('rewrite', () => {
  it('bullet_points: one "- " line per sentence or clause', () => {
    const out = rewrite({ style: 'bullet_points', sections }).sections[0].comment;
    const lines = out.split('\n');
    expect(lines.every((l) => l.startsWith('- '))).toBe(true);
    expect(lines.length).toBeGreaterThan(sentenceList(paragraph.comment).length);
    expect(out).toContain('- The student should add a statistic');
    expect(out).toContain('- The conclusion also needs a clearer link to the evidence');
  });

  it('paragraph: joins bullets into one flowing paragraph of sentences', () => {
    const out = rewrite({ style: 'paragraph', sections }).sections[1].comment;
    expect(out).not.toContain('\n');
    expect(out).not.toMatch(/^- /);
    expect(out).toBe(
      'Clear introduction and conclusion. Five paragraphs with one idea each. Linking words such as “however” and “therefore”.',
    );
  });

  it('short_sentences: no sentence much over 12 words, nothing lost', () => {
    const out = rewrite({ style: 'short_sentences', sections }).sections[0].comment;
    const list = sentenceList(out);
    expect(list.length).toBeGreaterThan(sentenceList(paragraph.comment).length);
    for (const s of list) expect(words(s)).toBeLessThanOrEqual(15);
    for (const w of ['figures', 'quotations', 'statistic', 'conclusion', 'explain each example']) expect(out).toContain(w);
  });

  it('rewrites only target_item (ignoring case) and returns the others unchanged', () => {
    const out = rewrite({ style: 'paragraph', target_item: 'organisation', sections }).sections;
    expect(out[0]).toEqual({ ...paragraph, rewritten: false });
    expect(out[1].rewritten).toBe(true);
    expect(out[1].comment).not.toBe(bullets.comment);
    expect(out[1]).toMatchObject({ item: 'Organisation', score: 4.5, max_score: 5 });
  });

  it('rewrites every section when no target is given, keeping item and scores', () => {
    const out = rewrite({ style: 'bullet_points', sections }).sections;
    expect(out.map((s) => s.rewritten)).toEqual([true, true]);
    expect(out.map((s) => [s.item, s.score, s.max_score])).toEqual([
      ['Evidence', 4, 10],
      ['Organisation', 4.5, 5],
    ]);
  });

  it('"encouraging" opens to fit the score and softens what is missing', () => {
    const [low, high] = rewrite({ style: 'paragraph', instruction: 'Please be more encouraging', sections }).sections;
    expect(low.comment).toMatch(/^This is a starting point, and there is a clear way to improve it\./);
    expect(low.comment).toContain('it could also explain how they support the argument');
    expect(low.comment).not.toContain('does not');
    expect(high.comment).toMatch(/^Well done: this is a strong part of the answer\./);
  });

  it('"student" speaks to the student', () => {
    const out = rewrite({ style: 'paragraph', instruction: 'address the student in second person', sections }).sections[0].comment;
    expect(out).toMatch(/^Your answer gives two examples/);
    expect(out).toContain('You should add a statistic');
    expect(out).not.toMatch(/\bthe (?:answer|student)\b/i);
  });

  it('"concise" keeps the first point, the gap and the advice', () => {
    const out = rewrite({ style: 'paragraph', instruction: 'make it concise', sections }).sections[0].comment;
    expect(words(out)).toBeLessThan(words(paragraph.comment));
    expect(out).toContain('To improve, explain each example.');
  });

  it('"include the score" opens with the score unless it is already stated', () => {
    const out = rewrite({ style: 'paragraph', instruction: 'include the score', sections }).sections;
    expect(out[0].comment.startsWith('Score: 4/10. ')).toBe(true);
    const stated = rewrite({
      style: 'paragraph',
      instruction: 'include the score',
      sections: [{ ...bullets, comment: 'Scores 4.5/5. Good.' }],
    });
    expect(stated.sections[0].comment).toBe('Scores 4.5/5. Good.');
  });

  it('adds nothing for an instruction it does not understand, and is deterministic', () => {
    const plain = rewrite({ style: 'short_sentences', sections });
    const odd = rewrite({ style: 'short_sentences', instruction: 'in the manner of a pirate', sections });
    expect(odd).toEqual(plain);
    expect(rewrite({ style: 'short_sentences', sections })).toEqual(plain);
  });
});

describe('rewrite of the sandbox grader’s own feedback', () => {
  it('softens its "Lacks:" line when asked to encourage, keeping the quotation and the next step', async () => {
    const { grade } = await import('../../packages/sandbox/src/engines/grader.js');
    const { SEED_MODELS } = await import('../../packages/sandbox/src/store/seed-models.js');
    const model = SEED_MODELS.find((m) => m.model_id === 12)!;
    const answer =
      'I think uniforms are good because they are cheap. Some people say they are boring but I disagree. So we should keep them.';
    const e = grade({
      answerText: answer,
      questionText: model.question_text,
      rubrics: model.rubrics,
      cumMethod: 'sum',
      totalScore: 20,
      style: 'Bullet',
    }).evaluation[1];
    expect(e.feedback).toMatch(/^- Lacks: /m);
    const out = rewrite({
      style: 'bullet_points',
      instruction: 'be encouraging',
      sections: [{ item: e.item, comment: e.feedback, score: e.score, max_score: e.max_score }],
    }).sections[0].comment;
    expect(out).not.toMatch(/^- Lacks:/m);
    expect(out).toMatch(/^- Still to add: /m);
    expect(out).toContain('Next step');
  });
});

describe('each style is what it says, on the sandbox grader’s own feedback', () => {
  const graded = async () => {
    const { grade } = await import('../../packages/sandbox/src/engines/grader.js');
    const { SEED_MODELS } = await import('../../packages/sandbox/src/store/seed-models.js');
    const { readFileSync } = await import('node:fs');
    const model = SEED_MODELS.find((m) => m.model_id === 12)!;
    const answerText = readFileSync(new URL('../../examples/sample-essay.txt', import.meta.url), 'utf8');
    return grade({
      answerText,
      questionText: model.question_text,
      rubrics: model.rubrics,
      cumMethod: 'sum',
      totalScore: 20,
      style: 'Bullet',
    }).evaluation.map((e) => ({ item: e.item, comment: e.feedback, score: e.score, max_score: e.max_score }));
  };
  const LABELS = /(?:^|\s)(?:Shows|Lacks|From the answer|Next step):/;
  /** Sentences, with quotations counted as one word: a quoted descriptor is the rubric's, not the rewrite's. */
  const plainWords = (s: string) => words(s.replace(/“[^”]*”/g, 'Q').replace(/\([^()]*\)/g, ''));

  it('paragraph: prose, its sentences without the labels or the list markers', async () => {
    for (const s of rewrite({ style: 'paragraph', sections: await graded() }).sections) {
      expect(s.comment).not.toContain('\n');
      expect(s.comment).not.toMatch(LABELS);
      expect(s.comment).not.toMatch(/(?:^|\s)- /);
      expect(s.comment).toMatch(/\bThe answer shows [^.]+\./);
    }
  });

  it('short_sentences: short sentences, without the labels', async () => {
    for (const s of rewrite({ style: 'short_sentences', sections: await graded() }).sections) {
      expect(s.comment).not.toMatch(LABELS);
      const list = s.comment.replace(/“[^”]*”/g, '“Q.”').split(/(?<=[.!?]["”)]?)\s+(?=["“(]?[A-Z0-9])/);
      for (const sentence of list) expect(plainWords(sentence), sentence).toBeLessThanOrEqual(15);
    }
  });

  it('bullet_points: a "- " line for each finding', async () => {
    for (const s of rewrite({ style: 'bullet_points', sections: await graded() }).sections) {
      const lines = s.comment.split('\n');
      expect(lines.every((l) => l.startsWith('- '))).toBe(true);
      expect(lines.filter((l) => l.startsWith('- Shows: ')).every((l) => !l.includes('; '))).toBe(true);
    }
  });

  it('target_item: only that criterion is rewritten, and the response says which', async () => {
    const out = rewrite({ style: 'paragraph', target_item: 'ORGANISATION', sections: await graded() }).sections;
    expect(out.filter((s) => s.rewritten).map((s) => s.item)).toEqual(['Organisation']);
    for (const s of out.filter((x) => !x.rewritten)) expect(s.comment).toMatch(/^- /);
  });
});

describe('kct rewrite --item', () => {
  it("prints only the criterion rewritten: by the service's flag, else by name", async () => {
    const { shownSections } = await import('../../src/commands/rewrite/run.js');
    const sections = [
      { item: 'Thesis', comment: 'a', rewritten: false },
      { item: 'Organisation', comment: 'b', rewritten: true },
    ];
    expect(shownSections(sections, 'organisation').map((s) => s.item)).toEqual(['Organisation']);
    expect(shownSections(sections, undefined)).toHaveLength(2);
    const unflagged = [
      { item: 'Thesis', comment: 'a' },
      { item: 'Organisation', comment: 'b' },
    ];
    expect(shownSections(unflagged, 'ORGANISATION').map((s) => s.item)).toEqual(['Organisation']);
  });
});
