import { describe, expect, it } from 'vitest';
import { bodyRequestId, serverErrorCode } from '../../src/api/errors.js';
import { isPlainObject, listFrom, serverMessage, unwrapEnvelope } from '../../src/client/envelope.js';

describe('unwrapEnvelope', () => {
  it('returns a body without `data` as it is', () => {
    const body = { task_id: 't1', status: 'QUEUED', stage: 'queued' };
    expect(unwrapEnvelope(body)).toBe(body);
  });

  it('returns the inner object of {data: {...}}', () => {
    expect(unwrapEnvelope({ data: { task_id: 't1', status: 'SUCCESS', score: 8 } })).toEqual({
      task_id: 't1',
      status: 'SUCCESS',
      score: 8,
    });
  });

  it('keeps top-level resource fields that data lacks, but the inner value wins on a clash', () => {
    const body = { task_id: 't1', stage: 'processing', credit_cost: 3, data: { status: 'PROGRESS', stage: 'queued' } };
    expect(unwrapEnvelope(body)).toEqual({ task_id: 't1', stage: 'queued', credit_cost: 3, status: 'PROGRESS' });
  });

  it('drops envelope keys (code, msg, message, success, request_id, ...) when merging', () => {
    const body = {
      code: 0,
      msg: 'ok',
      message: 'done',
      success: true,
      ok: true,
      meta: { page: 1 },
      timestamp: 1,
      request_id: 'r',
      requestId: 'r',
      error: null,
      errors: [],
      data: { task_id: 't1' },
    };
    expect(unwrapEnvelope(body)).toEqual({ task_id: 't1' });
  });

  it('does not merge an envelope status such as "ok", "success" or 200', () => {
    expect(unwrapEnvelope({ status: 'ok', data: { task_id: 't1' } })).toEqual({ task_id: 't1' });
    expect(unwrapEnvelope({ status: 'success', data: { task_id: 't1' } })).toEqual({ task_id: 't1' });
    expect(unwrapEnvelope({ status: 200, data: { task_id: 't1' } })).toEqual({ task_id: 't1' });
  });

  it('merges an upper-case task status from the top level', () => {
    expect(unwrapEnvelope({ status: 'SUCCESS', data: { task_id: 't1', score: 7 } })).toEqual({
      task_id: 't1',
      score: 7,
      status: 'SUCCESS',
    });
    expect(unwrapEnvelope({ status: 'SOME_NEW_STATE', data: { task_id: 't1' } })).toEqual({ task_id: 't1', status: 'SOME_NEW_STATE' });
  });

  it('keeps the inner status over a top-level one', () => {
    expect(unwrapEnvelope({ status: 'QUEUED', data: { status: 'SUCCESS' } })).toEqual({ status: 'SUCCESS' });
  });

  it('returns an array in data as that array', () => {
    const items = [{ model_id: 1 }, { model_id: 2 }];
    expect(unwrapEnvelope({ code: 0, data: items })).toBe(items);
  });

  it('returns the whole body when data is not an object or array', () => {
    const nullData = { data: null, message: 'nothing' };
    expect(unwrapEnvelope(nullData)).toBe(nullData);
    const stringData = { data: 'text' };
    expect(unwrapEnvelope(stringData)).toBe(stringData);
  });

  it('passes non-objects through', () => {
    expect(unwrapEnvelope('plain text')).toBe('plain text');
    expect(unwrapEnvelope(undefined)).toBeUndefined();
    expect(unwrapEnvelope(null)).toBeNull();
    expect(unwrapEnvelope(42)).toBe(42);
    const array = [1, 2];
    expect(unwrapEnvelope(array)).toBe(array);
  });

  it('does not modify the body it is given', () => {
    const body = { task_id: 't1', data: { status: 'QUEUED' } };
    unwrapEnvelope(body);
    expect(body).toEqual({ task_id: 't1', data: { status: 'QUEUED' } });
  });
});

describe('isPlainObject', () => {
  it('is true only for non-null, non-array objects', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(isPlainObject('x')).toBe(false);
  });
});

describe('listFrom', () => {
  it('returns a bare array', () => {
    const array = [1, 2, 3];
    expect(listFrom(array)).toBe(array);
  });

  it('finds the array under items, results or list, in that order', () => {
    expect(listFrom({ items: [1], total: 1 })).toEqual([1]);
    expect(listFrom({ results: [2] })).toEqual([2]);
    expect(listFrom({ list: [3] })).toEqual([3]);
    expect(listFrom({ list: [3], items: [1] })).toEqual([1]);
  });

  it('uses the caller keys first', () => {
    expect(listFrom({ models: [{ model_id: 1 }], items: [] }, ['models'])).toEqual([{ model_id: 1 }]);
  });

  it('takes the only array of an object under any key', () => {
    expect(listFrom({ total: 2, models: ['a', 'b'] })).toEqual(['a', 'b']);
  });

  it('returns [] when the choice is ambiguous or there is no array', () => {
    expect(listFrom({ a: [1], b: [2] })).toEqual([]);
    expect(listFrom({ total: 0 })).toEqual([]);
    expect(listFrom('text')).toEqual([]);
    expect(listFrom(undefined)).toEqual([]);
  });

  it('skips a conventional key that is not an array', () => {
    expect(listFrom({ items: 'none', results: [5] })).toEqual([5]);
  });
});

describe('serverMessage', () => {
  it.each([
    ['{error:{message}}', { error: { message: 'model not ready', code: 'model_not_ready' } }, 'model not ready'],
    ['{error:{msg}}', { error: { msg: 'bad key' } }, 'bad key'],
    ['{error:{detail}}', { error: { detail: 'gone' } }, 'gone'],
    ['{error:{description}}', { error: { description: 'described' } }, 'described'],
    ['{message}', { message: 'Insufficient credits' }, 'Insufficient credits'],
    ['{msg}', { code: 402, msg: 'no credits left' }, 'no credits left'],
    ['{detail:"..."}', { detail: 'Not Found' }, 'Not Found'],
    ['FastAPI {detail:[{msg}]}', { detail: [{ loc: ['body', 'model_id'], msg: 'field required', type: 'missing' }] }, 'field required'],
    ['{detail:[{message}]}', { detail: [{ message: 'from message' }] }, 'from message'],
    ['{errors:[{message}]}', { errors: [{ message: 'first' }, { message: 'second' }] }, 'first'],
    ['{errors:[{msg}]}', { errors: [{ msg: 'via msg' }] }, 'via msg'],
    ['{errors:["text"]}', { errors: ['a string error'] }, 'a string error'],
    ['{error:"text"}', { error: 'invalid_api_key' }, 'invalid_api_key'],
    ['{error_description}', { error_description: 'token expired' }, 'token expired'],
    ['{title}', { title: 'Problem title', status: 400 }, 'Problem title'],
    ['nested in data', { code: 500, data: { message: 'inner failure' } }, 'inner failure'],
    ['nested error in data', { data: { error: { message: 'deep' } } }, 'deep'],
  ])('reads %s', (_shape, body, expected) => {
    expect(serverMessage(body)).toBe(expected);
  });

  it('prefers the error object over a generic top-level message', () => {
    expect(serverMessage({ message: 'Bad Request', error: { message: 'rubrics is not a JSON array' } })).toBe(
      'rubrics is not a JSON array',
    );
  });

  it('trims the text it returns', () => {
    expect(serverMessage({ message: '  spaced out \n' })).toBe('spaced out');
  });

  it('skips empty strings and falls through to the next field', () => {
    expect(serverMessage({ error: { message: '   ' }, message: 'real one' })).toBe('real one');
    expect(serverMessage({ message: '', msg: 'second' })).toBe('second');
  });

  it('reads a plain-text body, trimmed and cut to 500 characters', () => {
    expect(serverMessage('  Bad Gateway\n')).toBe('Bad Gateway');
    const long = 'x'.repeat(2000);
    expect(serverMessage(long)).toHaveLength(500);
  });

  it('returns undefined when there is no message', () => {
    expect(serverMessage('')).toBeUndefined();
    expect(serverMessage('   ')).toBeUndefined();
    expect(serverMessage(undefined)).toBeUndefined();
    expect(serverMessage(null)).toBeUndefined();
    expect(serverMessage(500)).toBeUndefined();
    expect(serverMessage({ code: 500 })).toBeUndefined();
    expect(serverMessage({ detail: [] })).toBeUndefined();
    expect(serverMessage({ errors: [] })).toBeUndefined();
    expect(serverMessage({ message: 42 })).toBeUndefined();
  });
});

describe('serverErrorCode', () => {
  it('reads error.code, then a string top-level code', () => {
    expect(serverErrorCode({ error: { code: 'idempotency_conflict', message: 'x' } })).toBe('idempotency_conflict');
    expect(serverErrorCode({ code: 'model_not_ready' })).toBe('model_not_ready');
    expect(serverErrorCode({ error: { code: 'inner' }, code: 'outer' })).toBe('inner');
  });

  it('ignores numeric codes and non-objects', () => {
    expect(serverErrorCode({ code: 402, msg: 'no credits' })).toBeUndefined();
    expect(serverErrorCode({ error: { code: 17 } })).toBeUndefined();
    expect(serverErrorCode('text')).toBeUndefined();
    expect(serverErrorCode(undefined)).toBeUndefined();
  });
});

describe('bodyRequestId', () => {
  it('reads request_id, requestId or error.request_id', () => {
    expect(bodyRequestId({ request_id: 'req-1' })).toBe('req-1');
    expect(bodyRequestId({ requestId: 'req-2' })).toBe('req-2');
    expect(bodyRequestId({ error: { message: 'x', request_id: 'req-3' } })).toBe('req-3');
    expect(bodyRequestId({ request_id: 'top', error: { request_id: 'inner' } })).toBe('top');
  });

  it('returns undefined without one', () => {
    expect(bodyRequestId({ message: 'x' })).toBeUndefined();
    expect(bodyRequestId({ request_id: 12 })).toBeUndefined();
    expect(bodyRequestId('req-1')).toBeUndefined();
    expect(bodyRequestId(null)).toBeUndefined();
  });
});
