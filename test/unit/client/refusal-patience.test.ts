// How long a request keeps being refused before kct gives up (exit 9): a run's patient request
// waits out MAX_PACED_REFUSALS refusals for the pace, anything else its retries. On a clock that
// moves as the budget asks and pauses that take no time, so every bound is counted, not waited:
// against the sandbox the same refusals take a minute (test/integration/exit-codes.test.ts sends one).
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import { type BudgetClock, RequestBudget } from '../../../src/client/budget.js';
import { HttpClient, MAX_PACED_REFUSALS } from '../../../src/client/http.js';
import { DEFAULT_RETRY } from '../../../src/client/retry.js';

const ORIGIN = 'https://api.kct.test';

/** Time jumps to each timer as it is set: the budget's waits take no real time. */
function jumpingClock(): BudgetClock {
  let time = 0;
  return {
    now: () => time,
    setTimer: (fn, ms) => {
      time += Math.max(0, ms);
      return setImmediate(fn);
    },
    clearTimer: (timer) => clearImmediate(timer as NodeJS.Immediate),
  };
}

let agent: MockAgent;
let requests: number;
beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  requests = 0;
  agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: () => true })
    .reply(() => {
      requests++;
      return {
        statusCode: 429,
        data: { error: { code: 'rate_limited', message: 'slow down' } },
        responseOptions: { headers: { 'retry-after': '0' } },
      };
    })
    .persist();
});
afterEach(() => agent.close());

function client(budget?: RequestBudget, maxRetries = DEFAULT_RETRY.maxRetries): HttpClient {
  return new HttpClient({
    baseUrl: `${ORIGIN}/v1`,
    apiKey: 'kct_test_key_123456',
    userAgent: 'kct-test',
    dispatcher: agent,
    budget,
    sleep: async () => {},
    retry: { maxRetries },
  });
}

describe('a service that refuses every request', () => {
  it(`a run's patient submission is sent ${MAX_PACED_REFUSALS + 1} times, then its HTTP 429 is the error`, async () => {
    const budget = new RequestBudget({ clock: jumpingClock() });
    const sent = client(budget).send({ method: 'POST', path: '/evaluations/one-pass', json: {}, idempotencyKey: 'k-1', patient: true });
    await expect(sent).rejects.toSatisfy((error) => error instanceof ApiError && error.status === 429);
    expect(requests).toBe(MAX_PACED_REFUSALS + 1);
    expect(budget.pace().refusals).toBe(MAX_PACED_REFUSALS + 1);
  });

  it('a single command (not patient) is sent once and again for each retry, then says the service is busy', async () => {
    const sent = client(new RequestBudget({ clock: jumpingClock() })).send({ method: 'GET', path: '/credits' });
    await expect(sent).rejects.toSatisfy((error) => error instanceof ApiError && error.status === 429);
    expect(requests).toBe(DEFAULT_RETRY.maxRetries + 1);
  });

  it('KCT_MAX_RETRIES=0 turns the patience off too: one request', async () => {
    const budget = new RequestBudget({ clock: jumpingClock() });
    const sent = client(budget, 0).send({ method: 'POST', path: '/evaluations/one-pass', json: {}, idempotencyKey: 'k-2', patient: true });
    await expect(sent).rejects.toSatisfy((error) => error instanceof ApiError && error.status === 429);
    expect(requests).toBe(1);
  });
});
