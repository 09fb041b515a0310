// A KctClient over undici's MockAgent, made afresh for every test of the file that asks for one.
import { MockAgent } from 'undici';
import { afterEach, beforeEach } from 'vitest';
import { KctClient } from '../../../src/client/client.js';

export const ORIGIN = 'https://api.kct.test';
const KEY = 'kct_live_0123456789abcdefSECRETvalue';

/** `mock.agent` and `mock.client` hold the current test's; no request reaches the network. */
export function useMockClient(): { agent: MockAgent; client: KctClient } {
  const mock = {} as { agent: MockAgent; client: KctClient };
  beforeEach(() => {
    mock.agent = new MockAgent();
    mock.agent.disableNetConnect();
    mock.client = new KctClient({ baseUrl: `${ORIGIN}/v1`, apiKey: KEY, dispatcher: mock.agent, retry: { maxRetries: 0 } });
  });
  afterEach(async () => {
    await mock.client.close();
    await mock.agent.close();
  });
  return mock;
}
