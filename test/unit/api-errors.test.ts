import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InsufficientCreditsError,
  KctError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  refusalOf,
  ServerError,
} from '../../src/api/errors.js';
import * as library from '../../src/index.js';

describe('ApiError.from: one class per kind of HTTP error', () => {
  it.each<[number, typeof ApiError]>([
    [400, BadRequestError],
    [413, BadRequestError],
    [422, BadRequestError],
    [401, AuthenticationError],
    [402, InsufficientCreditsError],
    [403, PermissionError],
    [404, NotFoundError],
    [409, ConflictError],
    [429, RateLimitError],
    [500, ServerError],
    [503, ServerError],
  ])('HTTP %i → %o', (status, Kind) => {
    const error = ApiError.from(
      status,
      { error: { code: 'x_code', message: 'the server said so' } },
      { method: 'POST', url: 'http://h/v1/x', errorCode: 'x_code' },
    );
    expect(error).toBeInstanceOf(Kind);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(KctError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(Kind.name);
    expect(error.status).toBe(status);
    expect(error.message).toBe('the server said so');
    expect(error.code).toBe('x_code');
    expect(error.body).toEqual({ error: { code: 'x_code', message: 'the server said so' } });
  });

  it('reads the code and the request id from the body when nothing else says them (as the docs tell a mock to build one)', () => {
    const error = ApiError.from(409, {
      error: { code: 'model_not_ready', message: 'Model 12 is not ready', status: 409 },
      request_id: 'req_1',
    });
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.errorCode).toBe('model_not_ready');
    expect(error.code).toBe('model_not_ready');
    expect(error.requestId).toBe('req_1');
    // what the caller knows wins: a request id from the response's headers
    expect(ApiError.from(409, { request_id: 'req_body' }, { requestId: 'req_header' }).requestId).toBe('req_header');
  });

  it('keeps statuses with no class of their own a plain ApiError', () => {
    for (const status of [405, 408, 418]) {
      const error = ApiError.from(status);
      expect(error.constructor).toBe(ApiError);
      expect(error.code).toBe(`http_${status}`);
      expect(error.message).toBe(`HTTP ${status}`);
    }
  });

  it('reads the message from the common body shapes, and a given message wins', () => {
    expect(ApiError.from(404, { message: 'no such task' }).message).toBe('no such task');
    expect(ApiError.from(404, { error: 'gone' }).message).toBe('gone');
    expect(ApiError.from(404, 'Not Found here').message).toBe('Not Found here');
    expect(ApiError.from(404, { message: 'body' }, { message: 'given' }).message).toBe('given');
  });

  it('carries the suggestion and cause it is given', () => {
    const cause = new Error('below');
    const error = ApiError.from(409, undefined, {}, { suggestion: 'Wait until the model is ready.', cause });
    expect(error.suggestion).toBe('Wait until the model is ready.');
    expect(error.cause).toBe(cause);
  });

  it('is exported from the library entry', () => {
    for (const name of [
      'ApiError',
      'BadRequestError',
      'AuthenticationError',
      'PermissionError',
      'InsufficientCreditsError',
      'NotFoundError',
      'ConflictError',
      'RateLimitError',
      'ServerError',
      'KctClient',
      'TaskPoller',
    ]) {
      expect(library, name).toHaveProperty(name);
    }
  });
});

describe('refusalOf: a 404 or 409 told apart once, by status and code before any text', () => {
  const from = (status: number, code: string | undefined, message: string) =>
    ApiError.from(status, { error: { code, message } }, { errorCode: code, message });

  it('reads the error code first', () => {
    expect(refusalOf(from(409, 'model_not_ready', 'Conflict'))).toBe('model_not_ready');
    expect(refusalOf(from(409, 'idempotency_key_reused', 'model not ready'))).toBe('idempotency_key_reused');
    expect(refusalOf(from(404, 'task_not_found', 'x'))).toBe('task_not_found');
  });

  it('reads the message only when the server sent no code', () => {
    expect(refusalOf(from(409, undefined, 'The model is not ready yet'))).toBe('model_not_ready');
    expect(refusalOf(from(409, 'some_new_code', 'The model is not ready yet'))).toBeUndefined();
    expect(refusalOf(from(404, undefined, 'no such task'))).toBe('task_not_found');
  });

  it('a status that does not match the code is not that refusal', () => {
    expect(refusalOf(from(404, 'model_not_ready', 'x'))).toBeUndefined();
    expect(refusalOf(new Error('model not ready'))).toBeUndefined();
  });
});
