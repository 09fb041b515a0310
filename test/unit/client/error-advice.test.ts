// The library's HTTP errors carry their advice (src/client/response-errors.ts, the one place that
// decides it): 401, 402, 403, 404 (task, model, assignment), 429 with the seconds of Retry-After,
// 5xx; in the library's words (options and methods, no kct command). The CLI prints the same words,
// its settings named its own way (src/cli/core/hints.ts PHRASES): no second copy of the advice.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError, AuthenticationError, formatDuration, NotFoundError, PermissionError, RateLimitError } from '../../../src/api/errors.js';
import { cliHint, cliWords } from '../../../src/cli/core/hints.js';
import { advised } from '../../../src/client/response-errors.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

const namesKct = /`?kct [a-z]/;
const request = { path: '/evaluations/tsk_1', baseUrl: 'https://api.example/v1', notJson: false, keyed: true };

/** The error the client makes of an answer with this status, error code and headers. */
const answered = (status: number, errorCode?: string, headers: Record<string, string> = {}, message = `HTTP ${status}`) =>
  advised(
    ApiError.from(status, undefined, { message, method: 'GET', url: `${request.baseUrl}${request.path}`, errorCode, headers }),
    request,
  );

/** What main() prints after "hint: ". */
const printed = (error: ApiError) => cliHint(error) ?? error.suggestion;

describe("the library's HTTP errors say what to do", () => {
  it('401, 403, 404, 429 and the rest carry a suggestion in neutral words, and keep their class and fields', () => {
    const cases: [ApiError, RegExp][] = [
      [answered(401, 'invalid_api_key'), /^Check the API key \(the apiKey option\)/],
      [answered(402, 'insufficient_credits'), /credits\(\) method shows the balance/],
      [answered(403, 'model_forbidden'), /^Choose one of the models the key can use/],
      [answered(403, 'organization_scope_revoked'), /check its scope and its account/],
      [answered(404, 'task_not_found'), /^Check the task id \(it starts with tsk_\)/],
      [answered(404, 'model_not_found'), /^Check the model id: it must be one of the models the key can use/],
      [answered(404, 'assignment_not_found'), /^Check the assignment id/],
      [answered(429, 'rate_limited', { 'retry-after': '3' }), /^The service is limiting this key's requests: wait 3 s \(its Retry-After\)/],
      [answered(503, undefined, {}), /^The service failed or is busy: try again in a minute/],
    ];
    for (const [error, advice] of cases) {
      expect(error.suggestion, `${error.status} ${error.errorCode}`).toMatch(advice);
      expect(error.suggestion).not.toMatch(namesKct);
    }
    const [auth] = cases[0];
    expect(auth).toBeInstanceOf(AuthenticationError);
    expect(auth).toMatchObject({ status: 401, errorCode: 'invalid_api_key', method: 'GET', url: `${request.baseUrl}${request.path}` });
    expect(cases[2][0]).toBeInstanceOf(PermissionError);
    expect(cases[4][0]).toBeInstanceOf(NotFoundError);
    expect(cases[7][0]).toBeInstanceOf(RateLimitError);
  });

  it('a 404 without a code is read by its message, as refusalOf reads it', () => {
    expect(answered(404, undefined, {}, 'No task tsk_nope for this key.').suggestion).toMatch(/^Check the task id/);
    expect(answered(404, undefined, {}, 'Model 99 does not exist.').suggestion).toMatch(/^Check the model id/);
  });

  it('a 429 without a Retry-After, or with one that is no delay, says a minute', () => {
    expect(answered(429).suggestion).toContain('wait a minute, then send the request again');
    expect(answered(429, undefined, { 'retry-after': 'soon' }).suggestion).toContain('wait a minute');
    expect(answered(429, undefined, { 'retry-after': 'Sun, 06 Nov 1994 08:49:37 GMT' }).suggestion).toContain('wait 1 s (its Retry-After)');
  });

  it("the product's key routes (no API key sent) get no API-key advice; a base URL that leads elsewhere is said first", () => {
    const anonymous = advised(ApiError.from(401, undefined, { message: 'no session' }), {
      ...request,
      path: '/public_api/keys/list',
      keyed: false,
    });
    expect(anonymous.suggestion).toBeUndefined();
    const page = advised(ApiError.from(401, undefined, { message: 'HTTP 401' }), { ...request, notJson: true });
    expect(page.suggestion).toMatch(/^Check that https:\/\/api\.example\/v1 is the root of the Public Evaluation API/);
  });

  it(`names the seconds of any Retry-After, and the CLI says the same words (seed ${propertySeed(4127)})`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7200 }), fc.constantFrom(429, 503), (seconds, status) => {
        const error = answered(status, undefined, { 'retry-after': String(seconds) });
        const wait = `${formatDuration(Math.max(1, seconds) * 1000)} (its Retry-After)`;
        expect(error.suggestion).toContain(wait);
        expect(printed(error)).toBe(cliWords(error.suggestion!));
        expect(printed(error)).toContain(wait);
      }),
      { numRuns: propertyRuns(60), seed: propertySeed(4127) },
    );
  });
});

describe('the CLI prints the library’s advice, in its own words for settings', () => {
  it('401, 402, 403, 404, 429, 5xx: the printed hint is the suggestion with kct’s commands for the options it names', () => {
    const errors = [
      answered(401),
      answered(402),
      answered(403, 'model_forbidden'),
      answered(403),
      answered(404, 'task_not_found'),
      answered(404, 'model_not_found'),
      answered(429, 'rate_limited', { 'retry-after': '30' }),
      answered(502),
    ];
    for (const error of errors) expect(printed(error), `${error.status} ${error.errorCode}`).toBe(cliWords(error.suggestion!));
    expect(printed(errors[0])).toContain('`kct auth status`');
    expect(printed(errors[0])).toContain('the service refuses a key that is missing, mistyped or revoked');
    expect(printed(errors[2])).toBe(
      "Choose a model from `kct models` (`kct models --ready` lists those ready to mark with): a key sees only its owner's models, or its organization's.",
    );
    expect(printed(errors[4])).toBe('Check the task id (it starts with tsk_): a key sees only the tasks of its own account.');
    expect(printed(errors[6])).toBe(
      "The service is limiting this key's requests: wait 30 s (its Retry-After), then run the same command again (a refused request is not taken, so it is not charged).",
    );
  });
});
