import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  ConnectionError,
  CredentialsError,
  InterruptedError,
  KctError,
  TaskUnsuccessfulError,
  UsageError,
  WatchTimeoutError,
} from '../../src/api/errors.js';
import { EXIT, EXIT_CODE_TABLE, exitCodeFor, exitCodeForStatus } from '../../src/cli/core/exit-codes.js';
import { StudentsMismatchError } from '../../src/platforms/fill-report.js';

const api = (status: number) => ApiError.from(status, undefined, { method: 'GET', url: 'http://localhost/v1/x' });
// an ApiError built without the factory (a caller's own) still maps by its status
const bare = (status: number) => new ApiError({ status, message: `HTTP ${status}`, method: 'GET', url: 'http://localhost/v1/x' });

describe('exitCodeFor: kct errors', () => {
  it.each<[string, unknown, number]>([
    ['UsageError', new UsageError('bad flag'), 2],
    ['CredentialsError', new CredentialsError('no key'), 4],
    ['TaskUnsuccessfulError', new TaskUnsuccessfulError({ t1: 'FAILURE' }), 3],
    ['WatchTimeoutError', new WatchTimeoutError(['t1'], 60_000), 8],
    ['InterruptedError', new InterruptedError(), 130],
    ['StudentsMismatchError', new StudentsMismatchError('2 students have no row'), 10],
    ['ConnectionError (not delivered)', new ConnectionError('refused', false), 9],
    ['ConnectionError (maybe delivered)', new ConnectionError('reset', true), 9],
    ['another KctError', new KctError('redirect_refused', 'moved'), 1],
    ['a plain Error', new Error('bug'), 1],
    ['a TypeError', new TypeError('x is undefined'), 1],
    ['a thrown string', 'oops', 1],
    ['undefined', undefined, 1],
    ['null', null, 1],
  ])('%s → %i', (_name, error, code) => {
    expect(exitCodeFor(error)).toBe(code);
  });

  it('maps commander parse errors to 2', () => {
    const unknownOption = new CommanderError(1, 'commander.unknownOption', "error: unknown option '--nope'");
    const missing = Object.assign(new Error('missing argument'), { code: 'commander.missingArgument' });
    expect(exitCodeFor(unknownOption)).toBe(2);
    expect(exitCodeFor(missing)).toBe(2);
  });

  it('does not mistake other error codes for commander ones', () => {
    expect(exitCodeFor(Object.assign(new Error('no file'), { code: 'ENOENT' }))).toBe(1);
    expect(exitCodeFor(Object.assign(new Error('x'), { code: 42 }))).toBe(1);
  });
});

describe('exitCodeFor: HTTP errors', () => {
  it.each([
    [400, 2],
    [413, 2],
    [422, 2],
    [401, 4],
    [403, 4],
    [402, 5],
    [404, 6],
    [409, 7],
    [408, 9],
    [429, 9],
    [500, 9],
    [502, 9],
    [503, 9],
    [504, 9],
    [418, 1],
    [405, 1],
  ])('HTTP %i → %i', (status, code) => {
    expect(exitCodeFor(api(status))).toBe(code);
    expect(exitCodeFor(bare(status))).toBe(code);
    expect(exitCodeForStatus(status)).toBe(code);
  });
});

describe('EXIT and its table', () => {
  it('has the documented values', () => {
    expect(EXIT).toEqual({
      OK: 0,
      UNEXPECTED: 1,
      USAGE: 2,
      TASK_UNSUCCESSFUL: 3,
      AUTH: 4,
      CREDITS: 5,
      NOT_FOUND: 6,
      CONFLICT: 7,
      TIMEOUT: 8,
      UNREACHABLE: 9,
      STUDENTS_MISMATCH: 10,
      INTERRUPTED: 130,
      CLOSED_PIPE: 141,
      TERMINATED: 143,
    });
  });

  it('describes every code once', () => {
    const codes = EXIT_CODE_TABLE.map(([code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort((a, b) => a - b)).toEqual(Object.values(EXIT).sort((a, b) => a - b));
    for (const [, text] of EXIT_CODE_TABLE) expect(text.length).toBeGreaterThan(0);
  });
});
