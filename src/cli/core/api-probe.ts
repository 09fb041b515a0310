// Whether a base URL leads to the API, asked without a key: an API answers GET /credits with a
// JSON 401 (or, if it lets anyone read it, a JSON 200). An HTML page, a 404 or no answer mean the
// base URL leads somewhere else, and the error says so (with its hint) before a key is asked for
// or sent. `kct doctor` and `kct auth login` ask it.

import { VERSION } from '../../version.js';
import type { Context } from './context.js';
import { timeoutsFromEnv } from './environment.js';

export async function probeApi(
  baseUrl: string,
  context: Pick<Context, 'env' | 'dispatcher' | 'signal'>,
): Promise<{ ms: number; status: number }> {
  const [{ HttpClient }, { AuthenticationError, PermissionError }] = await Promise.all([
    import('../../client/http.js'),
    import('../../api/errors.js'),
  ]);
  const http = new HttpClient({
    baseUrl,
    userAgent: `kct/${VERSION}`,
    env: context.env,
    dispatcher: context.dispatcher,
    retry: { maxRetries: 0 },
    timeouts: timeoutsFromEnv(context.env),
  });
  const started = performance.now();
  let status: number;
  try {
    status = (await http.send({ method: 'GET', path: '/credits', anonymous: true, expectJson: true, signal: context.signal })).status;
  } catch (error) {
    const jsonRefusal =
      (error instanceof AuthenticationError || error instanceof PermissionError) && typeof error.body === 'object' && error.body !== null;
    if (!jsonRefusal) throw error;
    status = error.status;
  } finally {
    await http.close();
  }
  return { ms: Math.round(performance.now() - started), status };
}
