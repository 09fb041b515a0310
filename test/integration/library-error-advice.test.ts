// The library against a real sandbox: a wrong key (401), a key whose organization scope no longer
// holds (403), an unknown task id (404) and a rate-limited key (429, `kct sandbox --rate-limit 1`)
// are errors that carry `suggestion` (src/client/response-errors.ts); `kct` prints the same words
// after "hint: ", its own commands named where the library names an option.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWords } from '../../src/cli/core/hints.js';
import { AuthenticationError, KctClient, NotFoundError, PermissionError, RateLimitError } from '../../src/index.js';
import { kctEnv, runKct, type Sandbox, startSandbox, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
let limited: Sandbox;
beforeAll(async () => {
  limited = await startSandbox({ args: ['--rate-limit', '1'] });
});
afterAll(async () => {
  await limited?.stop();
});

const WRONG_KEY = 'kct_this_key_is_not_known_0000';
const UNKNOWN_TASK = 'tsk_0000000000000000000000ff';

/** The error a call ends with. */
async function failure(call: () => Promise<unknown>): Promise<Error> {
  try {
    await call();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

/** What kct prints after "hint: " for this command and key ('' when it succeeds, or says no hint). */
async function hintOf(sandbox: Sandbox, key: string, args: string[]): Promise<string> {
  const run = await runKct(args, { env: kctEnv(tempDir(), { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: key, KCT_MAX_RETRIES: '0' }) });
  return run.code === 0 ? '' : (/^hint: (.*)$/m.exec(run.stderr)?.[1] ?? '');
}

describe("the library's errors say what to do, and kct says the same", () => {
  it('a wrong key: 401, AuthenticationError, with a suggestion', async () => {
    const client = new KctClient({ baseUrl: shared.sandbox.baseUrl, apiKey: WRONG_KEY });
    const error = await failure(() => client.credits());
    await client.close();
    expect(error).toBeInstanceOf(AuthenticationError);
    const { suggestion } = error as AuthenticationError;
    expect(suggestion).toBe('Check the API key (the apiKey option): the service refuses a key that is missing, mistyped or revoked.');
    expect(await hintOf(shared.sandbox, WRONG_KEY, ['credits'])).toBe(cliWords(suggestion!));
  });

  it('an organization key whose owner is no longer an admin: 403, PermissionError, with a suggestion', async () => {
    const client = new KctClient({ baseUrl: shared.sandbox.baseUrl, apiKey: shared.sandbox.keys.former_admin });
    const error = await failure(() => client.models());
    await client.close();
    expect(error).toBeInstanceOf(PermissionError);
    const { suggestion } = error as PermissionError;
    expect(suggestion).toMatch(/^The key is accepted but may not do this: check its scope and its account/);
    expect(await hintOf(shared.sandbox, shared.sandbox.keys.former_admin, ['models'])).toBe(cliWords(suggestion!));
  });

  it('an unknown task id: 404, NotFoundError, with a suggestion', async () => {
    const client = new KctClient({ baseUrl: shared.sandbox.baseUrl, apiKey: shared.sandbox.keys.user });
    const error = await failure(() => client.status(UNKNOWN_TASK));
    await client.close();
    expect(error).toBeInstanceOf(NotFoundError);
    const { suggestion } = error as NotFoundError;
    expect(suggestion).toBe('Check the task id (it starts with tsk_): a key sees only the tasks of its own account.');
    expect(await hintOf(shared.sandbox, shared.sandbox.keys.user, ['status', UNKNOWN_TASK])).toBe(suggestion);
  });

  it('a rate-limited key: 429, RateLimitError, whose suggestion names the seconds of Retry-After', async () => {
    const client = new KctClient({ baseUrl: limited.baseUrl, apiKey: limited.keys.user, retry: { maxRetries: 0 } });
    let error: Error | undefined;
    // past the burst the limit allows, a request is refused
    for (let sent = 0; sent < 30 && error === undefined; sent++)
      error = await client.credits().then(
        () => undefined,
        (caught: Error) => caught,
      );
    await client.close();
    expect(error).toBeInstanceOf(RateLimitError);
    const { suggestion, headers } = error as RateLimitError;
    expect(suggestion).toBe(
      `The service is limiting this key's requests: wait ${headers?.['retry-after']} s (its Retry-After), then send the request again (a refused request is not taken, so it is not charged).`,
    );
    // kct, with its retries off, on a key just refused (run again while the key's next second is not up)
    let hint = '';
    for (let run = 0; run < 5 && !hint.startsWith('The service is limiting'); run++)
      hint = await hintOf(limited, limited.keys.user, ['credits']);
    const seconds = /wait (\d+ s) \(its Retry-After\)/.exec(hint)?.[1];
    expect(seconds, hint).toBeDefined();
    expect(hint).toBe(cliWords(suggestion!.replace(/wait \d+ s/, `wait ${seconds}`)));
    expect(hint).toContain('then run the same command again');
  });
});
