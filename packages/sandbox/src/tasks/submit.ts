// Submitting a task, the same for one-pass, the legacy path and the batch: the fault injector's
// check, the task's files moved into its own folder and a long request written beside them,
// acceptance (tasks/accept.ts), the queue woken, and the files deleted again when the task was
// not created (refused, or replayed).
import { join } from 'node:path';
import type { SandboxContext } from '../context.js';
import { creditCost } from '../engines/jobs.js';
import type { Principal } from '../http/auth.js';
import type { ReceivedFile } from '../http/multipart.js';
import type { Answer } from '../http/operation.js';
import { newTaskId } from '../store/ids.js';
import { SPILL_CHARS, spill } from '../store/spilled.js';
import type { TaskRow } from '../store/store.js';
import type { NewTask, NewTaskFile, Submission } from './accept.js';
import { accept, acceptedBefore } from './accept.js';

export interface TaskSubmission {
  endpoint: string;
  principal: Principal;
  /** Absent: not idempotent; the fault injector then knows the submission by its fingerprint. */
  idempotencyKey?: string | undefined;
  fingerprint: string;
  /** The student ids of the submission: a magic one makes the fault injector refuse it. */
  studentIds: readonly (string | null | undefined)[];
  /** Files received with the request and the folder they wait in. */
  received?: { files: ReceivedFile[]; dir?: string | undefined };
  /** The task (and batch items) to insert, given its id and its files' rows; may refuse (throw). */
  build(taskId: string, files: NewTaskFile[]): Pick<Submission, 'task' | 'children'>;
  /** Checks that read the database, inside the acceptance transaction. */
  check?: (task: NewTask) => void;
  /** The body of the acceptance response, stored for replays. */
  respond: (task: TaskRow) => unknown;
}

export async function submitTask(ctx: SandboxContext, submission: TaskSubmission): Promise<Answer> {
  const { endpoint, principal, idempotencyKey, fingerprint, received } = submission;
  const submissionId = `${principal.userId}\u0000${endpoint}\u0000${idempotencyKey ?? `fp:${fingerprint}`}`;
  for (const studentId of submission.studentIds) ctx.faults.check(studentId, submissionId);
  const taskId = newTaskId();
  const built = submission.build(taskId, storedFiles(ctx, received?.files ?? [], taskId));
  // Files reach their final place before the task row that points at them is committed.
  const written: string[] = [];
  const removeWritten = () => Promise.all(written.map((dir) => ctx.files.remove(dir)));
  try {
    if (received?.dir) written.push(await ctx.files.adopt(received.dir, taskId));
    // A retry of a submission already accepted is answered from its record (or refused, 409)
    // before anything is inserted: its long answers are not written again.
    const retried =
      idempotencyKey !== undefined && acceptedBefore(ctx.store, built.task.owner_user_id, endpoint, idempotencyKey) !== undefined;
    if (!retried) for (const task of [built.task, ...(built.children ?? [])]) await spillInput(ctx, task, written);
    const outcome = accept(ctx.store, {
      endpoint,
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      fingerprint,
      ...built,
      ...(submission.check ? { check: () => submission.check!(built.task) } : {}),
      respond: submission.respond,
    });
    if (outcome.kind === 'replayed') {
      await removeWritten();
      return { data: outcome.body, headers: { 'idempotent-replayed': 'true' } };
    }
    ctx.pool.kick();
    return { data: outcome.body };
  } catch (err) {
    await removeWritten();
    throw err;
  }
}

/** The task's folder file that holds its request's fields when they are long (store/spilled.ts). */
const INPUT_FILE = 'input.json';

/**
 * A long input (an answer of 64 KB or more) goes to a file of the task's folder, and its row
 * keeps the file's name. One task at a time: a batch's 100 answers are written between other
 * requests, not in one stretch of the request thread.
 */
async function spillInput(ctx: SandboxContext, task: NewTask, written: string[]): Promise<void> {
  const json = JSON.stringify(task.input);
  if (json.length <= SPILL_CHARS) {
    task.inputJson = json;
    return;
  }
  const dir = ctx.files.taskDir(task.task_id);
  if (!written.includes(dir)) written.push(dir);
  task.inputJson = await spill(json, dir, INPUT_FILE);
}

/** Who owns a task that marks one answer, and what it costs: its text and answer files, priced. */
export function answerTask(
  principal: Principal,
  answer: { student_id?: string | undefined; paper_content?: string | undefined },
  answerFiles: readonly ReceivedFile[],
) {
  return {
    owner_user_id: principal.userId,
    scope: principal.scope,
    student_id: answer.student_id ?? null,
    credit_cost: creditCost({
      ...(answer.paper_content !== undefined ? { textBytes: Buffer.byteLength(answer.paper_content) } : {}),
      fileBytes: answerFiles.map((f) => f.size),
    }),
  };
}

/** The task_files rows of received files, as they will sit in the task's folder. */
function storedFiles(ctx: SandboxContext, files: ReceivedFile[], taskId: string): NewTaskFile[] {
  return files.map((f, ord) => ({
    role: f.role,
    field: f.field,
    name: f.name,
    mime: f.mime,
    size: f.size,
    sha256: f.sha256,
    path: ctx.files.relative(join(ctx.files.taskDir(taskId), String(ord))),
  }));
}
