// What a job that could not finish means to the sender: the pool's refusals (busy, over its
// time budget, over its memory) in words that name the limit.
import { type HttpError, httpError } from '../../http/envelope.js';
import { JobCrashedError, JobTimeoutError, PoolBusyError } from '../../threads/pool.js';

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** The task-failure reason for a job the pool stopped, or undefined for any other error. */
export function jobFailureReason(err: unknown, what: string): string | undefined {
  if (err instanceof JobTimeoutError) {
    return `${capital(what)} took longer than ${seconds(err.budgetMs)}, the limit of one stage's work; nothing was charged. Send smaller or simpler files, or the text itself.`;
  }
  if (err instanceof JobCrashedError && err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return `${capital(what)} needed more memory than one stage's work may use; nothing was charged. Send smaller or simpler files, or the text itself.`;
  }
  return undefined;
}

/** The HTTP refusal for a request's job the pool refused or stopped, or undefined for any other error. */
export function jobRefusal(err: unknown, what: string): HttpError | undefined {
  if (err instanceof PoolBusyError) {
    const busy = httpError(503, `The sandbox is busy: ${err.waiting} jobs are waiting for a worker thread. Retry in a moment.`, 'busy');
    busy.headers['retry-after'] = '1';
    return busy;
  }
  const reason = jobFailureReason(err, what);
  return reason === undefined ? undefined : httpError(400, reason.replace('; nothing was charged', ''), 'too_complex');
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
