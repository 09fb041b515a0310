// Where requests go out: one keep-alive undici dispatcher (through a proxy when the environment
// names one), its timeouts, and the limits of one exchange (redirects, answer size).
import { holdingConnector } from './connector.js';
import { Agent, type Dispatcher, EnvHttpProxyAgent } from './undici.js';

export interface Timeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 120_000, bodyMs: 120_000 };

export const MAX_REDIRECTS = 5;

/** No API answer is this large; a misbehaving endpoint must not exhaust memory. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** The dispatcher of one client: every request of a run shares its connections. */
export function newDispatcher(timeouts: Timeouts, env: NodeJS.ProcessEnv): Dispatcher {
  const agentOptions = {
    // a response that arrives while an upload is cut short wins over the broken write (connector.ts)
    connect: holdingConnector({ timeout: timeouts.connectMs }),
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    keepAliveTimeout: 10_000,
  };
  const proxied = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => env[name]);
  return proxied ? new EnvHttpProxyAgent(agentOptions) : new Agent(agentOptions);
}
