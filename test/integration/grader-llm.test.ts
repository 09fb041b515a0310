// The language-model grading engine against a fake OpenAI-compatible server (test/unit/fake-llm.ts):
// what it sends, how it checks and repairs replies, and how each failure is reported.
import { describe, expect, it } from 'vitest';
import type { GradeInput } from '../../packages/sandbox/src/engines/grader.js';
import { OpenAiGrader } from '../../packages/sandbox/src/engines/llm/engine.js';
import { Slots } from '../../packages/sandbox/src/engines/llm/slots.js';
import { GraderFailure, type GraderOptions } from '../../packages/sandbox/src/engines/llm/types.js';
import { SEED_MODELS } from '../../packages/sandbox/src/store/seed-models.js';
import { ESSAY } from '../unit/sandbox-helpers.js';
import { fakeLlmForFile } from './fake-llm.js';

const llm = fakeLlmForFile();

const model12 = SEED_MODELS.find((m) => m.model_id === 12)!;
const input: GradeInput = {
  answerText: ESSAY,
  questionText: model12.question_text,
  assignmentDesc: model12.assignment_desc,
  rubrics: model12.rubrics,
  cumMethod: 'sum',
  totalScore: 20,
  style: 'Bullet',
};

function engine(model: string, extra: Partial<GraderOptions> = {}): OpenAiGrader {
  const e = new OpenAiGrader({ kind: 'openai', url: llm.fake.url, model, ...extra });
  llm.closeLater(e, (x) => x.close());
  return e;
}
const requestsFor = (model: string) => llm.fake.requests.filter((r) => r.model === model);
const never = new AbortController().signal;
async function failure(p: Promise<unknown>): Promise<GraderFailure> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GraderFailure);
  return err as GraderFailure;
}

describe('a good reply', () => {
  it('is used as it is, with totals recomputed locally by cum_method, never the model’s', async () => {
    const out = await engine('good').grade(input, never);
    expect(out.evaluation.map((e) => [e.item, e.score, e.max_score])).toEqual(
      model12.rubrics.map((r) => [r.item, r.max_score / 2, r.max_score]),
    );
    expect(out.score).toBe(10);
    const average = await engine('good').grade({ ...input, cumMethod: 'average', totalScore: 10 }, never);
    expect(average.score).toBe(5);
    for (const e of out.evaluation) for (const line of e.feedback.split('\n')) expect(line.startsWith('- ')).toBe(true);
  });

  it('sends one request with the question, the rubric with maxima and levels, the answer, the style, temperature 0 and a fixed seed', async () => {
    await engine('good').grade({ ...input, style: 'Long' }, never);
    const sent = requestsFor('good').at(-1)!.body;
    expect(sent).toMatchObject({ model: 'good', temperature: 0, seed: 7, stream: false });
    expect(sent.response_format.type).toBe('json_schema');
    const entries = sent.response_format.json_schema.schema.properties.criteria.items.anyOf;
    expect(entries.map((e: any) => e.properties.item.enum)).toEqual(model12.rubrics.map((r) => [r.item]));
    const text = sent.messages.map((m: { content: string }) => m.content).join('\n');
    expect(text).toContain(model12.question_text);
    expect(text).toContain('- "Evidence & reasoning" (maximum 6)');
    expect(text).toContain('level 6: Two or more well-chosen pieces of evidence');
    expect(text).toContain('School uniforms should be compulsory at our school');
    expect(text).toMatch(/Long: one paragraph/);
  });

  it('sends the key as a bearer token only when one is given', async () => {
    await engine('good').grade(input, never);
    expect(requestsFor('good').at(-1)!.headers.authorization).toBeUndefined();
    await engine('good', { apiKey: 'sk-test-123' }).grade(input, never);
    expect(requestsFor('good').at(-1)!.headers.authorization).toBe('Bearer sk-test-123');
  });

  it('is found inside code fences and prose', async () => {
    expect((await engine('fenced').grade(input, never)).score).toBe(10);
  });
});

describe('an invalid reply', () => {
  it('gets one repair attempt that names the problem, then succeeds if the model corrects it', async () => {
    const out = await engine('malformed-once').grade(input, never);
    expect(out.score).toBe(10);
    const [first, second] = requestsFor('malformed-once');
    expect(second.body.messages.slice(0, first.body.messages.length)).toEqual(first.body.messages);
    expect(second.body.messages.at(-2)).toEqual({ role: 'assistant', content: 'not json at all' });
    expect(second.body.messages.at(-1).content).toMatch(/cannot be used: the reply is not valid JSON/);
  });

  it('ends in a failure that is not retryable after the repair attempt fails too (malformed JSON)', async () => {
    const before = requestsFor('malformed').length;
    const err = await failure(engine('malformed').grade(input, never));
    expect(requestsFor('malformed').length - before).toBe(2);
    expect(err).toMatchObject({ kind: 'invalid', retryable: false });
    expect(err.message).toMatch(/could not be used, even after one request to correct it \(the reply is not valid JSON\)/);
  });

  it('names a missing criterion', async () => {
    const err = await failure(engine('missing').grade(input, never));
    expect(err.message).toContain('criterion "Language & conventions" is missing');
  });

  it('names a score above the maximum', async () => {
    const err = await failure(engine('over-max').grade(input, never));
    expect(err.message).toContain('criterion "Thesis & position" scored 6, outside 0 to 5');
  });
});

describe('a server that cannot be used', () => {
  it('answering 500 is a retryable failure, without a repair attempt', async () => {
    const err = await failure(engine('error-500').grade(input, never));
    expect(err).toMatchObject({ kind: 'server', retryable: true });
    expect(err.message).toContain('answered HTTP 500: model crashed');
    expect(requestsFor('error-500')).toHaveLength(1);
  });

  it('hanging past the timeout is a retryable failure naming the limit', async () => {
    const err = await failure(engine('hang', { timeoutMs: 300 }).grade(input, never));
    expect(err).toMatchObject({ kind: 'timeout', retryable: true });
    expect(err.message).toContain('did not answer within 0.3 s');
    expect(err.message).toContain('--grader-timeout');
  });

  it('not listening is a retryable failure saying what to check', async () => {
    const nowhere = new OpenAiGrader({ kind: 'openai', url: 'http://127.0.0.1:9/v1', model: 'good', connectTimeoutMs: 2000 });
    llm.closeLater(nowhere, (x) => x.close());
    const err = await failure(nowhere.grade(input, never));
    expect(err).toMatchObject({ kind: 'unreachable', retryable: true });
    expect(err.message).toMatch(/could not be reached \(ECONNREFUSED\)\. Check that the server is running/);
  });

  it('unknown model is reported with the flag to fix', async () => {
    const err = await failure(engine('no-such-model').grade(input, never));
    expect(err.message).toMatch(/does not know the model "no-such-model".*Check --grader-model/);
  });

  it('never repeats the key, even when the server echoes it back', async () => {
    const err = await failure(engine('echo-key', { apiKey: 'sk-secret-abc' }).grade(input, never));
    expect(err.message).toContain('Check the key in KCT_GRADER_API_KEY');
    expect(err.message).not.toContain('sk-secret-abc');
    expect(err.message).toContain('Bearer [key]');
  });
});

describe('a server without json_schema support', () => {
  it('is asked again with the schema in the prompt, and not offered structured output again', async () => {
    const e = engine('no-schema');
    expect((await e.grade(input, never)).score).toBe(10);
    const [refused, prompted] = requestsFor('no-schema');
    expect(refused.body.response_format).toBeDefined();
    expect(prompted.body.response_format).toBeUndefined();
    expect(prompted.body.messages[0].content).toMatch(/Reply with one JSON object and nothing else.*"enum":\["Thesis & position"/s);
    await e.grade(input, never);
    expect(requestsFor('no-schema')).toHaveLength(3);
    expect(requestsFor('no-schema')[2].body.response_format).toBeUndefined();
  });
});

describe('concurrency', () => {
  it('never has more requests at the server than the engine allows', async () => {
    const e = engine('slow', { concurrency: 2 });
    const outs = await Promise.all(Array.from({ length: 6 }, () => e.grade(input, never)));
    expect(outs.every((o) => o.score === 10)).toBe(true);
    expect(llm.fake.peak).toBeLessThanOrEqual(2);
    expect(requestsFor('slow')).toHaveLength(6);
  });

  it('lets a waiter whose task was cancelled leave the queue at once', async () => {
    const slots = new Slots(1);
    let release!: () => void;
    const holding = slots.run(
      () =>
        new Promise<void>((r) => {
          release = r;
        }),
      never,
    );
    const cancelled = new AbortController();
    const waiting = slots.run(async () => 'ran', cancelled.signal);
    cancelled.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    release();
    await holding;
    expect(slots.running).toBe(0);
    expect(await slots.run(async () => 'next', never)).toBe('next');
  });
});

describe("each criterion's maximum", () => {
  it('is in the schema, each criterion its own: a server that decodes under it is never asked again for a score over a maximum', async () => {
    const out = await engine('generous').grade(input, never);
    // One request: every score the server produced was within its criterion's maximum, so no repair was asked for.
    expect(requestsFor('generous')).toHaveLength(1);
    expect(out.evaluation.map((e) => [e.item, e.score])).toEqual(model12.rubrics.map((r) => [r.item, r.max_score]));
    const entries = requestsFor('generous')[0].body.response_format.json_schema.schema.properties.criteria.items.anyOf;
    expect(entries.map((e: any) => [e.properties.item.enum[0], e.properties.score.minimum, e.properties.score.maximum])).toEqual(
      model12.rubrics.map((r) => [r.item, 0, r.max_score]),
    );
  });

  it('is in the prompt for a server without structured output', async () => {
    await engine('no-schema').grade(input, never);
    const prompt = requestsFor('no-schema')
      .at(-1)!
      .body.messages.map((m: { content: string }) => m.content)
      .join('\n');
    for (const r of model12.rubrics) {
      expect(prompt).toContain(`"${r.item}" 0 to ${r.max_score}`);
      expect(prompt).toContain(`"enum":["${r.item}"]},"score":{"type":"number","minimum":0,"maximum":${r.max_score}}`);
    }
  });
});

describe('feedback rewrite', () => {
  const sections = [
    { item: 'Organisation', comment: 'Clear paragraphs.', score: 4, max_score: 5 },
    { item: 'Evidence', comment: 'Needs figures.', score: 2, max_score: 6 },
  ];

  it('rewrites every section, or only the target, and never changes a score', async () => {
    const all = await engine('good').rewrite({ style: 'paragraph', sections }, never);
    expect(all.sections).toEqual([
      { item: 'Organisation', comment: 'Rewritten: Clear paragraphs.', score: 4, max_score: 5, rewritten: true },
      { item: 'Evidence', comment: 'Rewritten: Needs figures.', score: 2, max_score: 6, rewritten: true },
    ]);
    const one = await engine('good').rewrite({ style: 'bullet_points', target_item: 'evidence', sections }, never);
    expect(one.sections[0]).toMatchObject({ comment: 'Clear paragraphs.', rewritten: false });
    expect(one.sections[1]).toMatchObject({ comment: '- Rewritten: Needs figures', rewritten: true, score: 2 });
  });

  it("gives each style its form, as the sandbox's own rewrite does: prose without the labels a model added", async () => {
    const prose = await engine('labelled').rewrite({ style: 'paragraph', target_item: 'organisation', sections }, never);
    expect(prose.sections.map((s) => s.rewritten)).toEqual([true, false]);
    expect(prose.sections[0].comment).toBe('The answer shows clear paragraphs and clear links. It lacks a conclusion.');
    const bullets = await engine('labelled').rewrite({ style: 'bullet_points', sections }, never);
    expect(bullets.sections[0].comment).toBe('- Shows: Clear paragraphs\n- Shows: clear links\n- Lacks: a conclusion');
  });

  it('fails clearly when the reply leaves a section out', async () => {
    const err = await failure(engine('missing').rewrite({ style: 'paragraph', sections }, never));
    expect(err.message).toContain('section "Organisation" is missing');
  });
});
