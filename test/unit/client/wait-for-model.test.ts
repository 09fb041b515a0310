// client.waitForModel: GET /models polled until the model is ready, ending in a typed error when
// its training fails, at the deadline, or when the caller aborts. GET /models is undici's MockAgent.
import { describe, expect, it } from 'vitest';
import { InterruptedError, TaskUnsuccessfulError, WatchTimeoutError } from '../../../src/api/errors.js';
import { cliHint } from '../../../src/cli/core/hints.js';
import { MODEL_TRAINING_ADVICE, ModelWaitInterruptedError, ModelWaitTimeoutError } from '../../../src/client/model-wait.js';
import { pollSchedule } from '../../../src/client/poll.js';
import { ORIGIN, useMockClient } from './mock-client.js';

/** Looks every few milliseconds: the tests wait for states, never for time. */
const FAST = pollSchedule(5);

describe('client.waitForModel', () => {
  const mock = useMockClient();

  const listing = (...statuses: (string | undefined)[]) => {
    const pool = mock.agent.get(ORIGIN);
    for (const status of statuses) {
      const models = status === undefined ? [] : [{ model_id: 7, assignment_name: 'Uniforms', post_status: status }];
      pool
        .intercept({ method: 'GET', path: '/v1/models' })
        .reply(200, JSON.stringify({ data: models, request_id: 'req_1' }), { headers: { 'content-type': 'application/json' } });
    }
  };

  /** Every look finds the model training. */
  const training = () => {
    mock.agent
      .get(ORIGIN)
      .intercept({ method: 'GET', path: '/v1/models' })
      .reply(200, JSON.stringify({ data: [{ model_id: 7, post_status: 'training' }] }), { headers: { 'content-type': 'application/json' } })
      .persist();
  };

  it('resolves with the model once it is ready, telling each change of status', async () => {
    listing(undefined, 'training', 'training', 'ready');
    const seen: string[] = [];
    const model = await mock.client.waitForModel(7, { timeoutMs: 60_000, schedule: FAST, onProgress: (status) => seen.push(status) });
    expect(model).toMatchObject({ model_id: 7, post_status: 'ready' });
    expect(seen).toEqual(['not listed', 'training', 'ready']);
    mock.agent.assertNoPendingInterceptors();
  });

  it('a failed training ends in TaskUnsuccessfulError naming the state', async () => {
    listing('training', 'failed');
    const waiting = mock.client.waitForModel('7', { timeoutMs: 60_000, schedule: FAST });
    await expect(waiting).rejects.toThrow(TaskUnsuccessfulError);
    await expect(waiting).rejects.toThrow('model 7 ended failed; it cannot be used for marking');
  });

  it('the deadline ends in ModelWaitTimeoutError (a WatchTimeoutError) with the last status and neutral advice', async () => {
    training();
    const waiting = mock.client.waitForModel(7, { timeoutMs: 50, schedule: FAST });
    await expect(waiting).rejects.toBeInstanceOf(ModelWaitTimeoutError);
    const error = await waiting.catch((e: unknown) => e as ModelWaitTimeoutError);
    expect(error).toBeInstanceOf(WatchTimeoutError);
    expect(error.message).toBe('model 7 is still training after 50 ms');
    expect(error.suggestion).toBe(MODEL_TRAINING_ADVICE);
    // kct's words are added only by the CLI's hint table
    expect(cliHint(error)).toBe('It keeps training. Check it with `kct models show 7`, or wait again with a longer --timeout.');
  });

  it('a model never listed by the deadline is not said to keep training: its id is to check', async () => {
    mock.agent
      .get(ORIGIN)
      .intercept({ method: 'GET', path: '/v1/models' })
      .reply(200, JSON.stringify({ data: [] }), { headers: { 'content-type': 'application/json' } })
      .persist();
    const error = await mock.client.waitForModel(999, { timeoutMs: 50, schedule: FAST }).catch((e: unknown) => e as ModelWaitTimeoutError);
    expect(error).toBeInstanceOf(ModelWaitTimeoutError);
    expect(error.message).toBe('model 999 is still not listed after 50 ms');
    expect(error.suggestion).toContain('GET /models never listed it: check its id');
    expect(cliHint(error)).toContain('check its id with `kct models`');
  });

  it('a wait with no deadline, or one that is no number of milliseconds, is refused (a UsageError), not polled forever', async () => {
    for (const timeoutMs of [undefined, '60000', 0, -1, Number.POSITIVE_INFINITY, Number.NaN])
      await expect(mock.client.waitFor('tsk_1', { timeoutMs } as never), String(timeoutMs)).rejects.toMatchObject({
        code: 'usage',
        message: expect.stringContaining('timeoutMs must be a number of milliseconds above 0'),
      });
    await expect(mock.client.waitForModel(7, {} as never)).rejects.toMatchObject({ code: 'usage' });
  });

  it('an abort ends in ModelWaitInterruptedError (an InterruptedError); the model keeps training', async () => {
    training();
    const stop = new AbortController();
    const waiting = mock.client.waitForModel(7, { timeoutMs: 60_000, schedule: FAST, signal: stop.signal, onProgress: () => stop.abort() });
    const error = await waiting.catch((e: unknown) => e as ModelWaitInterruptedError);
    expect(error).toBeInstanceOf(ModelWaitInterruptedError);
    expect(error).toBeInstanceOf(InterruptedError);
    expect(error.message).toBe('stopped waiting for model 7');
    expect(cliHint(error)).toBe('The model keeps training on the server. Check it with: kct models show 7');
  });

  it('a model that disappears after being listed is a NotFoundError', async () => {
    listing('training', undefined);
    await expect(mock.client.waitForModel(7, { timeoutMs: 60_000, schedule: FAST })).rejects.toMatchObject({
      status: 404,
      message: 'model 7 is no longer listed by GET /models',
    });
  });
});
