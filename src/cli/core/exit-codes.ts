// The one place where errors become exit codes. Every command shares this table; docs/commands/kct.md#exit-codes and
// `kct help exit-codes` print it.
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  CredentialsError,
  InsufficientCreditsError,
  InterruptedError,
  KctError,
  NoSuchItemError,
  NotFinalError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  TaskUnsuccessfulError,
  UnhandledDeliveriesError,
  UsageError,
  WatchTimeoutError,
} from '../../api/errors.js';
import { StudentsMismatchError } from '../../platforms/fill-report.js';

export const EXIT = {
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
} as const;

/** What each code means, as docs/commands/kct.md#exit-codes and `kct help exit-codes` say it; the type asks for every code. */
const MEANINGS: Record<keyof typeof EXIT, string> = {
  OK: 'success',
  UNEXPECTED: 'anything unexpected (a bug, an unknown server answer, such as a task that ended SUCCESS with no score)',
  USAGE: 'bad usage or input: flags, arguments, local files, or HTTP 400/413/422',
  TASK_UNSUCCESSFUL: 'the task ended FAILURE or CANCEL (for several answers: at least one did)',
  AUTH: 'authentication or permission: no usable key or sign-in, HTTP 401 or 403',
  CREDITS: 'insufficient credits (HTTP 402)',
  NOT_FOUND: 'not found (HTTP 404): model, assignment, task or key',
  CONFLICT: 'conflict (HTTP 409): model not ready, task not cancellable, Idempotency-Key reused',
  TIMEOUT: 'still not final when --timeout ran out, or when kct result read it (the task keeps running; its id is printed)',
  UNREACHABLE: 'service unreachable, or HTTP 5xx/429 after retries',
  STUDENTS_MISMATCH:
    'a grade file was filled (written when any grade was), but some students of the download have no row in it, so their grades cannot be imported: read the report (kct grades moodle, kct grades canvas)',
  INTERRUPTED: 'interrupted (Ctrl-C, SIGINT); running tasks are left running',
  CLOSED_PIPE:
    'stdout was closed by its reader before kct had written everything (kct ... | head): as a SIGPIPE ends a program; a marking run stops there, its tasks left running',
  TERMINATED: 'stopped by SIGTERM (a CI job cancelled, a container stopped); running tasks are left running',
};

export const EXIT_CODE_TABLE: readonly [number, string][] = Object.entries(EXIT).map(([name, code]) => [
  code,
  MEANINGS[name as keyof typeof EXIT],
]);

/** 128 + the signal's number, as shells report a process a signal stopped. */
export function exitCodeForSignal(signal: NodeJS.Signals): number {
  return signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED;
}

export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return EXIT.USAGE;
  if (error instanceof CredentialsError) return EXIT.AUTH;
  if (error instanceof NoSuchItemError) return EXIT.NOT_FOUND;
  if (error instanceof TaskUnsuccessfulError) return EXIT.TASK_UNSUCCESSFUL;
  if (error instanceof WatchTimeoutError || error instanceof NotFinalError) return EXIT.TIMEOUT;
  if (error instanceof InterruptedError) return EXIT.INTERRUPTED;
  // a partial failure, as a class run with answers that have no result (docs/guides/exit-codes.md)
  if (error instanceof UnhandledDeliveriesError) return error.interrupted ? EXIT.INTERRUPTED : EXIT.UNEXPECTED;
  if (error instanceof StudentsMismatchError) return EXIT.STUDENTS_MISMATCH;
  if (error instanceof ConnectionError) return EXIT.UNREACHABLE;
  if (error instanceof ApiError) return exitCodeForApiError(error);
  if (error instanceof KctError) return EXIT.UNEXPECTED;
  const code = (error as { code?: unknown } | null)?.code;
  // commander's own parse errors (unknown option, missing argument)
  if (typeof code === 'string' && code.startsWith('commander.')) return EXIT.USAGE;
  // a local file or folder kct was told to use cannot be read or written
  if (typeof code === 'string' && typeof (error as { path?: unknown }).path === 'string' && /^E[A-Z]+$/.test(code)) return EXIT.USAGE;
  return EXIT.UNEXPECTED;
}

/** The error classes of src/api/errors.ts; a plain ApiError (408, 3xx, other 4xx) goes by its status. */
function exitCodeForApiError(error: ApiError): number {
  if (error instanceof BadRequestError) return EXIT.USAGE;
  if (error instanceof AuthenticationError || error instanceof PermissionError) return EXIT.AUTH;
  if (error instanceof InsufficientCreditsError) return EXIT.CREDITS;
  if (error instanceof NotFoundError) return EXIT.NOT_FOUND;
  if (error instanceof ConflictError) return EXIT.CONFLICT;
  if (error instanceof RateLimitError || error instanceof ServerError) return EXIT.UNREACHABLE;
  return exitCodeForStatus(error.status);
}

export function exitCodeForStatus(status: number): number {
  if (status === 400 || status === 413 || status === 422) return EXIT.USAGE;
  if (status === 401 || status === 403) return EXIT.AUTH;
  if (status === 402) return EXIT.CREDITS;
  if (status === 404) return EXIT.NOT_FOUND;
  if (status === 409) return EXIT.CONFLICT;
  if (status === 408 || status === 429 || status >= 500) return EXIT.UNREACHABLE;
  return EXIT.UNEXPECTED;
}
