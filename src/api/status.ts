// Task states of spec section 3. Kept free of zod so hot paths (polling) can use it cheaply.

export const TASK_STATUSES = ['QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS', 'SUCCESS', 'FAILURE', 'CANCEL'] as const;
export type KnownTaskStatus = (typeof TASK_STATUSES)[number];

/** The legacy assignment path (POST /evaluations) starts here; spec 3 leaves what follows open. */
export const LEGACY_STATUS = 'PENDING';

export const STAGE_OF: Record<KnownTaskStatus, string> = {
  QUEUED: 'queued',
  UPLOADING: 'uploading',
  SUBMITTED: 'submitted',
  PROGRESS: 'processing',
  SUCCESS: 'completed',
  FAILURE: 'failed',
  CANCEL: 'cancelled',
};

const FINAL = new Set<string>(['SUCCESS', 'FAILURE', 'CANCEL']);
const FINAL_STAGES = new Set<string>(['completed', 'failed', 'cancelled']);

/**
 * Only the three final statuses of the spec are final. Anything else, including a status
 * this client has never heard of, means "keep polling": a newer server may add states.
 */
export function isFinalStatus(status: unknown): boolean {
  return typeof status === 'string' && FINAL.has(status.toUpperCase());
}

const KNOWN = new Set<string>([...TASK_STATUSES, LEGACY_STATUS]);

/** A task's status before it is final, as a saved row has it (a run with --no-wait, or one stopped): no mark yet, nor an end. */
export function isUnfinishedTaskStatus(status: string): boolean {
  return KNOWN.has(status) && !isFinalStatus(status);
}

/**
 * A status this client knows decides; an unknown or missing one (say "FAILED") defers to the
 * stage, so a server that names its states differently still ends the watch.
 */
export function isFinalSnapshot(snapshot: { status?: unknown; stage?: unknown }): boolean {
  if (typeof snapshot.status === 'string' && KNOWN.has(snapshot.status.toUpperCase())) return isFinalStatus(snapshot.status);
  return typeof snapshot.stage === 'string' && FINAL_STAGES.has(snapshot.stage.toLowerCase());
}

const UNSUCCESSFUL = new Set(['FAILURE', 'CANCEL', 'FAILED', 'CANCELLED']);

/** True when a status (or, lacking one, a stage) says the task ended without a score (exit code 3). */
export function isUnsuccessfulFinal(status: unknown): boolean {
  return typeof status === 'string' && UNSUCCESSFUL.has(status.toUpperCase());
}

/** The status to show and act on: the status, else the stage, else "UNKNOWN". */
export function statusOf(record: { status?: unknown; stage?: unknown }): string {
  if (typeof record.status === 'string' && record.status !== '') return record.status;
  if (typeof record.stage === 'string' && record.stage !== '') return record.stage;
  return 'UNKNOWN';
}

/** A mark: SUCCESS with a number for its score. SUCCESS without one is no mark and no failure (UnscoredResultError). */
export function isMarked<T extends { status?: unknown; score?: unknown }>(record: T): record is T & { score: number } {
  return record.status === 'SUCCESS' && typeof record.score === 'number';
}

/** SUCCESS with no number for its score: a service's answer kct does not know (exit 1), counted apart from marks and failures. */
export function isUnscoredSuccess(record: { status?: unknown; score?: unknown }): boolean {
  return record.status === 'SUCCESS' && typeof record.score !== 'number';
}
