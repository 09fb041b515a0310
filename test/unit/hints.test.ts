// kct's own hints for API errors (src/cli/hints.ts): kct commands, not API routes.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { cliHint } from '../../src/cli/hints.js';

const api = (status: number, message: string, errorCode?: string) => new ApiError({ status, message, method: 'POST', url: 'http://x/v1/evaluations', errorCode });

describe('cliHint', () => {
  it('a model id used as an assignment id names kct assign and kct one-pass', () => {
    const hint = cliHint(api(404, 'There is no assignment 12, but there is a model 12: 12 is a model_id. POST /evaluations needs an assignment_id from POST /assignments.', 'assignment_not_found'));
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

  it('leaves other errors to their own suggestion', () => {
    expect(cliHint(api(401, 'The API key is not valid.'))).toBeUndefined();
    expect(cliHint(new Error('x'))).toBeUndefined();
  });
});
