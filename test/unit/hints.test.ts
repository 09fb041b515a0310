// kct's own hints for API errors (src/cli/core/hints.ts): kct commands, not API routes.
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  CONNECTION_ADVICE,
  ConnectionError,
  CredentialsError,
  KctError,
  ServerStoppedAnsweringError,
  WatchTimeoutError,
} from '../../src/api/errors.js';
import { cliHint } from '../../src/cli/core/hints.js';
import { advised } from '../../src/client/response-errors.js';
import { assertSendableKey } from '../../src/client/sendable-key.js';

/** An HTTP error as the client makes it: with the library's advice (src/client/response-errors.ts). */
const api = (status: number, message: string, errorCode?: string) =>
  advised(ApiError.from(status, undefined, { message, method: 'POST', url: 'http://x/v1/evaluations/tsk_1/cancel', errorCode }), {
    path: '/evaluations/tsk_1/cancel',
    baseUrl: 'http://x/v1',
    notJson: false,
    keyed: true,
  });

describe('cliHint', () => {
  it('a model id used as an assignment id names kct assign and kct one-pass', () => {
    const hint = cliHint(
      api(
        404,
        'There is no assignment 12, but there is a model 12: 12 is a model_id. POST /evaluations needs an assignment_id from POST /assignments.',
        'assignment_not_found',
      ),
    );
    expect(hint).toContain('12 is a model id');
    expect(hint).toContain('kct assign --model 12');
    expect(hint).toContain('kct one-pass <file> --model 12');
    expect(hint).not.toContain('POST /');
  });

  it('an assignment id used as a model id names kct evaluate and kct models', () => {
    const hint = cliHint(api(404, 'There is no model 1001, but there is an assignment 1001: 1001 is an assignment_id.', 'model_not_found'));
    expect(hint).toContain('kct evaluate --assignment 1001');
    expect(hint).toContain('kct models');
  });

  it('a missing model, a forbidden one and one not ready', () => {
    expect(cliHint(api(404, 'Model 99 does not exist.', 'model_not_found'))).toContain('kct models');
    expect(cliHint(api(403, 'This key has no access to model 12.', 'model_forbidden'))).toContain('kct models');
    expect(cliHint(api(409, 'Model 14 is not ready.', 'model_not_ready'))).toContain('kct models show 14');
  });

  it("every other HTTP error still says what to do: the library's advice, in kct's words", () => {
    // what main() prints after "hint: "
    const printed = (error: ApiError) => cliHint(error) ?? error.suggestion;
    expect(printed(api(401, 'The API key is not valid.'))).toContain('kct auth status');
    expect(printed(api(402, 'Not enough credits.'))).toContain('kct credits');
    expect(printed(api(404, 'No task tsk_nope.', 'task_not_found'))).toContain('task id');
    expect(printed(api(409, 'The task has ended and cannot be cancelled.', 'task_not_cancellable'))).toContain('kct result tsk_1');
    expect(printed(api(503, 'Busy.'))).toContain('never charged twice');
  });

  it("leaves an error with its own suggestion, and errors that are not kct's, alone", () => {
    const own = ApiError.from(
      401,
      undefined,
      { message: 'nope', method: 'GET', url: 'http://x/v1/credits' },
      { suggestion: 'Use the other key.' },
    );
    expect(cliHint(own)).toBeUndefined();
    expect(cliHint(api(400, 'Bad field.'))).toBeUndefined();
    expect(cliHint(new Error('x'))).toBeUndefined();
  });
});

describe('library suggestions are neutral; the CLI words come from cliHint', () => {
  const namesKct = /`?kct (?:auth|status|config|one-pass|sandbox|models)\b/;

  it('no API key: the library says what to pass, kct says how to log in', () => {
    let error: unknown;
    try {
      assertSendableKey(undefined);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CredentialsError);
    expect((error as CredentialsError).suggestion).not.toMatch(namesKct);
    expect(cliHint(error)).toContain('kct auth login');
    // logging in needs the base URL too: the hint names it, and where a newcomer gets both
    expect(cliHint(error)).toContain('--base-url <url>');
    expect(cliHint(error)).toContain('start `kct sandbox`: it prints its URL and keys');
  });

  it('a watch timeout: kct names the status command with the task id', () => {
    const error = new WatchTimeoutError(['t_42'], 60_000);
    expect(error.suggestion).not.toMatch(namesKct);
    expect(cliHint(error)).toBe('The task keeps running. Check it later with `kct status t_42 --watch`.');
    // several tasks: not the first one's status, the command that collects them all
    expect(cliHint(new WatchTimeoutError(['t_1', 't_2', 't_3'], 60_000))).toMatch(
      /^The tasks keep running\. Run the same command again later/,
    );
  });

  it('a refused connection names kct config; a server that stopped answering keeps its own advice', () => {
    const refused = new ConnectionError('cannot reach http://127.0.0.1:9/v1 (connection refused)', false, {
      suggestion: CONNECTION_ADVICE,
    });
    expect(cliHint(refused)).toContain('the base URL it names (given with --base-url, KCT_BASE_URL, or `kct config set base_url`)');
    expect(cliHint(new ServerStoppedAnsweringError(['t_1'], refused))).toBeUndefined();
  });

  it('base-URL advice names the flag, the variable and kct config', () => {
    const error = ApiError.from(
      404,
      undefined,
      { message: 'HTTP 404' },
      { suggestion: 'Check that http://h/v1 is the root of the API (the baseUrl option).' },
    );
    expect(cliHint(error)).toBe('Check that http://h/v1 is the root of the API (--base-url, KCT_BASE_URL, or `kct config set base_url`).');
  });

  it('a refused redirect: kct says how to store the new base URL', () => {
    const error = new KctError('redirect_refused', 'moved', {
      suggestion: 'If the API moved, use its new base URL: https://new.example/v1',
    });
    expect(cliHint(error)).toBe('If the API moved, set the new base URL: kct config set base_url https://new.example/v1');
  });
});

describe("a command's own suggestion wins over the CLI table", () => {
  it('a watch timeout whose command set its advice keeps it', () => {
    const error = new WatchTimeoutError(['m_7'], 300);
    Object.defineProperty(error, 'suggestion', { value: 'It keeps training. Check it with `kct models show 7`.' });
    expect(cliHint(error)).toBeUndefined();
  });
});
