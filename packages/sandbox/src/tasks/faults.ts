// Documented magic inputs (docs/sandbox.md), like a payment sandbox's test card numbers: they
// let users' CI and our tests drive failure handling on purpose.
import { HttpError } from '../http/envelope.js';

export const MAGIC_FAIL = 'KCT-SANDBOX-FAIL';
const MAGIC_SLOW = 'KCT-SANDBOX-SLOW';
export const SLOW_EXTRA_MS = 1500;

const FAULTS: Record<string, { status: 429 | 503; once: boolean }> = {
  'kct-429': { status: 429, once: false },
  'kct-503': { status: 503, once: false },
  'kct-429-once': { status: 429, once: true },
  'kct-503-once': { status: 503, once: true },
};

export function forcesFailure(answerText: string): boolean {
  return answerText.includes(MAGIC_FAIL);
}

export function isSlow(answerText: string): boolean {
  return answerText.includes(MAGIC_SLOW);
}

/**
 * Submission faults chosen by student_id. The "-once" ones remember, in memory only, which
 * submission (by Idempotency-Key, else by fingerprint) they already refused, so the client's
 * retry of that same submission is accepted.
 */
export class FaultInjector {
  private readonly refused = new Set<string>();

  check(studentId: string | null | undefined, submission: string): void {
    const fault = studentId ? FAULTS[studentId] : undefined;
    if (!fault) return;
    if (fault.once) {
      const token = `${studentId}\u0000${submission}`;
      if (this.refused.has(token)) return;
      // Bounded: a long-running sandbox under a CI loop must not grow without end.
      if (this.refused.size >= 10_000) this.refused.clear();
      this.refused.add(token);
    }
    throw fault.status === 429
      ? new HttpError(
          429,
          'rate_limited',
          `Too many requests (forced by the sandbox magic student_id "${studentId}"). Retry after 1 second with the same Idempotency-Key.`,
          undefined,
          { 'retry-after': '1' },
        )
      : new HttpError(
          503,
          'unavailable',
          `The service is temporarily unavailable (forced by the sandbox magic student_id "${studentId}"). Retry after 1 second with the same Idempotency-Key.`,
          undefined,
          { 'retry-after': '1' },
        );
  }
}
