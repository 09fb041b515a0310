// The sandbox marking through the language-model engine: the queue's rules hold (charge once on
// SUCCESS, nothing on FAILURE or CANCEL, compare-and-swap against a cancel), each failure ends the
// task with a reason and the right `retryable`, and POST /feedback-rewrite uses the engine too.
import { describe, expect, test } from 'vitest';
import { ESSAY, launch, type TestSandbox } from '../unit/sandbox-helpers.js';
import { fakeLlmForFile } from './fake-llm.js';

const llm = fakeLlmForFile();

async function sandboxFor(model: string, timeoutMs = 10_000): Promise<TestSandbox> {
  const sb = await launch({ grader: { kind: 'openai', url: llm.fake.url, model, timeoutMs, apiKey: 'sk-sandbox-key' } });
  llm.closeLater(sb, (s) => s.dispose());
  return sb;
}

async function credits(sb: TestSandbox): Promise<number> {
  return (await sb.call('GET', '/credits')).body.data.credits;
}

async function submit(sb: TestSandbox, extra: Record<string, unknown> = {}) {
  const res = await sb.call('POST', '/evaluations/one-pass', { json: { model_id: 12, paper_content: ESSAY, ...extra } });
  expect(res.status).toBe(202);
  return res.body.data.task_id as string;
}

describe('marking through the engine', () => {
  test('SUCCESS with the model’s scores and feedback, the total recomputed, charged exactly once', async () => {
    const sb = await sandboxFor('good');
    const before = await credits(sb);
    const id = await submit(sb, { style: 'Short' });
    expect((await sb.waitFor(id, sb.keys.user)).status).toBe('SUCCESS');
    const result = (await sb.call('GET', `/evaluations/${id}`)).body.data;
    expect(result.score).toBe(10);
    expect(result.evaluation[0]).toMatchObject({ item: 'Thesis & position', score: 2.5, max_score: 5 });
    expect(result.evaluation[0].feedback).toMatch(/^Reaches the middle level for Thesis & position/);
    // Who marked it: the model by name, never the server's address.
    expect(result.graded_by).toBe('the language model "good", through the sandbox');
    expect(await credits(sb)).toBe(before - result.credits_charged);
    expect(result.credits_charged).toBe(result.credit_cost);
  });

  test('an invalid reply after the repair attempt: FAILURE, not retryable, nothing charged, the reason in the comment', async () => {
    const sb = await sandboxFor('over-max');
    const before = await credits(sb);
    const id = await submit(sb);
    const done = await sb.waitFor(id, sb.keys.user);
    expect(done.status).toBe('FAILURE');
    const result = (await sb.call('GET', `/evaluations/${id}`)).body.data;
    expect(result).toMatchObject({ retryable: false, credits_charged: 0 });
    expect(result.evaluation[0]).toMatchObject({ type: 'error' });
    expect(result.evaluation[0].comment).toMatch(/criterion "Thesis & position" scored 6, outside 0 to 5.*No credits were charged\./);
    expect(await credits(sb)).toBe(before);
  });

  test.each([
    ['a server error: FAILURE, retryable, nothing charged', 'error-500', undefined, 'answered HTTP 500'],
    ['a server that hangs past the timeout: FAILURE, retryable, naming the limit', 'hang', 400, 'did not answer within 0.4 s'],
  ])('%s', async (_, model, timeoutMs, message) => {
    const sb = await sandboxFor(model, timeoutMs);
    const id = await submit(sb);
    await sb.waitFor(id, sb.keys.user);
    const result = (await sb.call('GET', `/evaluations/${id}`)).body.data;
    expect(result).toMatchObject({ status: 'FAILURE', retryable: true, credits_charged: 0 });
    expect(result.message).toContain(message);
  });

  test('a task cancelled while the model works stays CANCEL, uncharged', async () => {
    const sb = await sandboxFor('hang', 60_000);
    const before = await credits(sb);
    const id = await submit(sb);
    await sb.waitFor(id, sb.keys.user, (s) => s.status === 'PROGRESS' && s.cur_step === 4);
    // The model is asked at the last step; wait until it really has the request.
    while (
      !llm.fake.requests.some(
        (r) => r.model === 'hang' && String(r.body.messages[1].content).includes('School uniforms should be compulsory'),
      )
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await sb.call('POST', `/evaluations/${id}/cancel`)).status).toBe(200);
    const result = (await sb.call('GET', `/evaluations/${id}`)).body.data;
    expect(result).toMatchObject({ status: 'CANCEL', credits_charged: 0 });
    expect(await credits(sb)).toBe(before);
  });

  test('the key goes to the model server only, never into a result', async () => {
    const sb = await sandboxFor('echo-key');
    const id = await submit(sb);
    await sb.waitFor(id, sb.keys.user);
    const record = JSON.stringify((await sb.call('GET', `/evaluations/${id}`)).body);
    expect(record).toContain('Check the key in KCT_GRADER_API_KEY');
    expect(record).not.toContain('sk-sandbox-key');
    expect(llm.fake.requests.filter((r) => r.model === 'echo-key').every((r) => r.headers.authorization === 'Bearer sk-sandbox-key')).toBe(
      true,
    );
  });
});

describe('POST /feedback-rewrite through the engine', () => {
  const body = { style: 'paragraph', sections: [{ item: 'Organisation', comment: 'Clear paragraphs.', score: 4, max_score: 5 }] };

  test('rewrites with the model', async () => {
    const sb = await sandboxFor('good');
    const res = await sb.call('POST', '/feedback-rewrite', { json: body });
    expect(res.status).toBe(200);
    expect(res.body.data.sections[0]).toMatchObject({
      item: 'Organisation',
      comment: 'Rewritten: Clear paragraphs.',
      score: 4,
      rewritten: true,
    });
  });

  test('a server down or failing is 503 with Retry-After; an unusable reply is 502', async () => {
    const down = await sandboxFor('error-500');
    const unavailable = await down.call('POST', '/feedback-rewrite', { json: body });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers['retry-after']).toBe('5');
    expect(unavailable.body.error).toMatchObject({ code: 'grader_unavailable' });
    const broken = await sandboxFor('malformed');
    const invalid = await broken.call('POST', '/feedback-rewrite', { json: body });
    expect(invalid.status).toBe(502);
    expect(invalid.body.error.code).toBe('grader_invalid_reply');
    expect(invalid.body.error.message).toMatch(/could not be used/);
  });
});
