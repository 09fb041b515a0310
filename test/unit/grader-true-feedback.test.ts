// The cases issue 35 measured on eee86fb, one example each, on the README's model 12, the model
// the README builds from examples/, and the test essays (test/fixtures/essay*.txt, real/). The
// properties behind them are in grader-judgement.test.ts and grader-claims.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type GradeInput, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import type { Judgement } from '../../packages/sandbox/src/engines/grading/judgement.js';
import { standing } from '../../packages/sandbox/src/engines/grading/levels.js';
import { advice, lacks } from '../../packages/sandbox/src/engines/grading/phrases.js';
import { AT_LENGTH_WORDS } from '../../packages/sandbox/src/engines/grading/readings.js';
import { FIXTURES } from './extract-helpers.js';
import { EXAMPLES, examplesModel, labelledAnswers, type Marking, REAL, realAnswers, seededModel } from './grader-helpers.js';
import { readBullet } from './grader-reading.js';

const text = (path: string) => readFileSync(path, 'utf8');
const strong = text(join(FIXTURES, 'essay.txt'));
const middling = text(join(FIXTURES, 'essay-middling.txt'));
const weak = text(join(REAL, 'weak-uniforms.txt'));
const misspelt = text(join(REAL, 'misspelt-uniforms.txt'));
const letter = text(join(EXAMPLES, 'homework-letter.txt'));
const model12 = seededModel(12);

const input = (m: Marking, answerText: string): GradeInput => ({ ...m, answerText, style: 'Bullet' });
const judged = (m: Marking, answerText: string, item: string) => {
  const i = m.rubrics.findIndex((r) => r.item === item);
  return { j: judgements(input(m, answerText))[i], feedback: grade(input(m, answerText)).evaluation[i].feedback };
};
const levels12 = (item: string) => model12.rubrics.find((r) => r.item === item)!.levels;
const measured = (j: Judgement, id: string) => j.points.find((p) => p.id === id)?.measured;

describe('the level matches the score', () => {
  it('names the level whose points are nearest the score, by the rubric’s own points', () => {
    // Evidence (6): levels at 6, 4, 2 and 0; 2.5 is nearest level 2, not "closest to level 4".
    expect(standing(levels12('Evidence & reasoning'), 6, 2.5).level.score).toBe(2);
    // Organisation (5): levels at 5, 4, 2 and 0; 2.5 does not reach level 4 ("Clear structure").
    expect(standing(levels12('Organisation'), 5, 2.5).level.score).toBe(2);
    expect(standing(levels12('Organisation'), 5, 4).exact).toBe(true);
    // Halfway between two levels: both are named, the lower first, and the next step leads to the higher.
    const halfway = standing(levels12('Thesis & position'), 5, 3);
    expect([halfway.level.score, halfway.between?.score, halfway.next?.score]).toEqual([2, 4, 4]);
  });

  it('never moves the score to fit a level: a 24-word answer is not given 3.5/4 for Language', () => {
    const short =
      'School uniforms should be compulsory because they make every student equal, save families money and stop arguments about clothes every single morning before school.';
    const { j, feedback } = judged(model12, short, 'Language & conventions');
    expect(j.caveat).toEqual({ kind: 'short', words: 24, low: 400, high: 600, stated: true });
    expect(j.score).toBeLessThanOrEqual(1.5);
    expect(feedback).toContain('At 24 words, where the task asks for 400 to 600, the answer is too short');
  });
});

describe('Shows, Lacks and the next step agree', () => {
  it('quotes "vague, late, or only implied" only for a position without its reasons, and says which', () => {
    const precise = judged(model12, strong, 'Thesis & position');
    expect(precise.feedback).not.toContain('vague, late, or only implied');
    const vague = judged(model12, middling, 'Thesis & position');
    expect(vague.feedback).toContain('level 2 (“A position is given but is vague, late, or only implied in places”)');
    expect(readBullet(vague.feedback).lacks).toContain('a precise position: the opening states a view without giving a reason for it');
    expect(vague.feedback).not.toMatch(/Shows:[^\n]*precise/);
  });

  it('never quotes "Errors make the writing hard to follow" beside an accurate, formal answer held down as off the topic', () => {
    const offTopic = labelledAnswers().find((a) => a.name === 'persuasive/off-topic.txt')!;
    const { j, feedback } = judged(model12, offTopic.text, 'Language & conventions');
    expect(j.shows.map((p) => p.id)).toContain('register');
    expect(feedback).not.toContain('Errors make the writing hard to follow');
    expect(feedback).toContain('Shows (held down with the rest of the answer)');
  });

  it('never advises what it shows: a formal register shown is not the next step', () => {
    for (const answer of [strong, middling]) {
      const { j, feedback } = judged(model12, answer, 'Language & conventions');
      expect(j.shows.map((p) => p.id)).toContain('register');
      expect(readBullet(feedback).step).not.toMatch(/formal register/);
    }
  });

  it('suggests links the answer does not use', () => {
    const answer = [
      'I believe uniforms should stay, because they are fair and cheap for every family in our school.',
      'However, some students find them uncomfortable in the summer months when classrooms are hot.',
      'Therefore, the school should offer a lighter summer uniform that still looks smart and costs little.',
    ].join('\n\n');
    const links = measured(judged(model12, answer, 'Organisation').j, 'connectives');
    expect(links).toEqual({ id: 'connectives', used: ['however', 'therefore'], kinds: 2 });
    expect(lacks(links!)).toBe('links between points (only “however” and “therefore”)');
    expect(advice(links!)).toBe('link each paragraph to the one before, with words such as “furthermore”, “as a result” or “in addition”');
  });

  it('finds the reply in the next sentence of a letter ("However, these benefits do not need homework.")', () => {
    const reply = [
      'Dear Mrs Patel,',
      'I am writing to ask you to ban homework for students under sixteen, because it takes away our sleep, our family time and our hobbies.',
      'Homework takes hours every night. Many of my classmates finish worksheets after eleven o’clock and arrive tired. A survey by our student council found that 58% of Year 10 students spend more than two hours a night on homework, which shows how much of the evening it takes.',
      'Some teachers say homework teaches discipline and prepares us for exams. However, these benefits do not need homework. Longer study periods in school would teach the same habits, with a teacher there to help.',
      'For these reasons, I urge you to ban homework for students under sixteen.',
      'Yours sincerely,',
      'Jordan Ellis',
    ].join('\n\n');
    const { j, feedback } = judged(examplesModel(), reply, 'Evidence and counter-argument');
    const counter = measured(j, 'counter');
    expect(counter).toMatchObject({ id: 'counter', views: 1, replied: true });
    expect(feedback).not.toMatch(/Lacks:[^\n]*reply to the opposing view/);
    expect(feedback).toMatch(/an opposing view, answered in 2 sentences \(\d+ words\)/);
  });
});

describe('counts that are counts', () => {
  it('says "1 example", never "several pieces of specific support"', () => {
    const { feedback } = judged(model12, middling, 'Evidence & reasoning');
    expect(feedback).toContain('enough specific support (only 1 example)');
    expect(feedback).not.toMatch(/several/);
  });

  it('counts the demo essay’s support as a reader would: a clock time sets a scene, and “In this way” explains', () => {
    const demo = text(join(EXAMPLES, 'sample-essay.txt'));
    const { feedback } = judged(model12, demo, 'Evidence & reasoning');
    // "at 8:30 in the morning" is no figure; 2021 is one (it was "2 figures", and the 8:30 sentence
    // counted as explained by the thesis's "because" two sentences on)
    expect(feedback).toContain('specific support (1 figure, 1 source, 2 examples and 1 name or date)');
    // the one explained is the badges example, followed by "In this way the benefits … remain"
    expect(feedback).toContain('(1 piece of support explained)');
    const j = judgements(input(model12, 'Uniforms help. Schools can allow items such as badges. In this way the costs fall.'))[1];
    expect(measured(j, 'explanation')).toMatchObject({ explained: 1 });
  });

  it('counts the 17 misspelt words of the uniforms essay with the word list, each time they occur', () => {
    const { j, feedback } = judged(model12, misspelt, 'Language & conventions');
    const accuracy = measured(j, 'accuracy');
    expect(accuracy?.id).toBe('accuracy');
    if (accuracy?.id !== 'accuracy') return;
    expect(accuracy.misspelt.map((w) => w.toLowerCase()).sort()).toEqual(
      [
        'compulsary',
        'compulsary',
        'compulsary',
        'beleive',
        'becuase',
        'ourselfs',
        'alot',
        "freind's",
        'diffrent',
        'insted',
        'realy',
        'experiance',
        'uncomfertable',
        'alowed',
        'untill',
        'finaly',
        'responsability',
      ].sort(),
    );
    expect(accuracy.byKind.grammar).toBe(3); // "there own" twice, "to hot"
    expect(feedback).toContain(
      'accuracy (20 slips in 206 words: 17 misspelt words such as “compulsary”, “beleive” or “becuase”, and 3 slips of grammar)',
    );
  });

  it('marks an answer with more slips lower on Language than one with none', () => {
    const language = (answer: string) => judged(model12, answer, 'Language & conventions').j.score;
    for (const sloppy of [weak, misspelt]) {
      expect(language(sloppy)).toBeLessThan(language(middling));
      expect(language(sloppy)).toBeLessThan(language(strong));
    }
  });

  it('finds no slip in the answers written without any', () => {
    for (const answer of [strong, middling, letter, text(join(EXAMPLES, 'sample-essay.txt'))]) {
      for (const j of judgements(input(model12, answer))) {
        const accuracy = measured(j, 'accuracy');
        if (accuracy?.id === 'accuracy') expect(accuracy.misspelt).toEqual([]);
      }
    }
  });
});

describe('praise only where a measurement earns it', () => {
  it('says "at length" only for a reply of 50 words or more, and never "fairly"', () => {
    const short = judged(model12, strong, 'Evidence & reasoning').feedback;
    expect(short).toMatch(/an opposing view, answered in 1 sentence \(\d+ words\)/);
    expect(short.replace(/“[^”]*”/g, '“…”')).not.toMatch(/at length|fairly/);
    const long = judged(examplesModel(), letter, 'Evidence and counter-argument');
    const counter = measured(long.j, 'counter');
    expect(counter?.id === 'counter' && counter.replyWords).toBeGreaterThanOrEqual(AT_LENGTH_WORDS);
    expect(long.feedback).toMatch(/an opposing view, answered at length \(3 sentences, \d+ words\)/);
    for (const a of [...labelledAnswers(), ...realAnswers()]) {
      for (const e of grade(input(model12, a.text)).evaluation)
        expect(e.feedback.replace(/“[^”]*”/g, '“…”'), a.name).not.toMatch(/\bfairly\b/);
    }
  });

  it('never quotes a sentence that takes no side as the position ("asked whether uniforms should stay compulsory")', () => {
    for (const j of judgements(input(model12, misspelt))) {
      if (j.quote && ['position', 'precision'].includes(j.quote.point)) expect(j.quote.text).not.toMatch(/asked whether/);
    }
    const { j } = judged(model12, misspelt, 'Thesis & position');
    expect(j.quote?.point).toBe('position');
    expect(j.quote?.text).toMatch(/^I beleive they should not/);
  });

  it('calls a position precise only when the sentence that states it gives a reason', () => {
    const { j } = judged(model12, strong, 'Thesis & position');
    const precision = measured(j, 'precision');
    expect(precision).toMatchObject({ id: 'precision', precise: true });
    const vague = measured(judged(model12, middling, 'Thesis & position').j, 'precision');
    expect(vague).toMatchObject({ id: 'precision', early: true, precise: false });
  });
});
