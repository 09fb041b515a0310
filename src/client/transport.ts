// Where requests go out: one keep-alive undici dispatcher (through a proxy when the given
// environment names one), its timeouts, and the limits of one exchange (redirects, answer size).
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
  const proxies = proxiesOf(env);
  return proxies.httpProxy || proxies.httpsProxy ? new EnvHttpProxyAgent({ ...agentOptions, ...proxies }) : new Agent(agentOptions);
}

/**
 * The proxy settings of `env`, given to undici explicitly: it would read the process's own
 * environment otherwise, which is not the one a caller of main({ env }) passed. The lower-case
 * spelling wins, as in undici and curl; '' means none.
 */
function proxiesOf(env: NodeJS.ProcessEnv): { httpProxy: string; httpsProxy: string; noProxy: string } {
  return {
    httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  };
}
