// Before anything is sent, every answer of a run gets its identity (client/identity.ts: its
// content and marking, never its labels) and one plan: sent, or a copy of an earlier answer of this
// run (same identity: one charge, one mark), or reused from what was marked before (the journal of
// --resume, then this machine's ledger), or sent again when what marked it before did not (FAILURE,
// CANCEL: never charged). So the run knows what it will charge before it asks the service for
// anything, and an identity is never charged twice, whatever it is called.
import { readFileSync } from 'node:fs';
import { canonicalJson } from '../api/canonical.js';
import type { OnePassFields } from '../api/schemas.js';
import { isUnsuccessfulFinal } from '../api/status.js';
import type { Answer } from '../cli/answers/answers.js';
import { type LocalFile, ONE_READ_BYTES, withContent } from '../client/files.js';
import { cachedHasher, type FileHasher, hashFile } from '../client/idempotency.js';
import { answerIdentity, contentOf, type KeyedFile, labelsOf, loneText, markingOf, sha256 } from '../client/identity.js';
import { limiter } from '../client/limit.js';
import type { Journal, JournalKnown } from './journal.js';
import type { Ledger, Marked } from './ledger.js';

/** What becomes of an answer. */
export type Plan =
  | { kind: 'send' }
  /** The same identity as row `of` of this run: its mark, under this answer's labels. */
  | { kind: 'copy'; of: number }
  /** Known from the journal of --resume, or from this machine's ledger. */
  | { kind: 'reuse'; from: 'journal' | 'ledger'; known: JournalKnown | Marked }
  /** Sent before and ended FAILURE or CANCEL (the journal or the ledger says so): sent again under a key of its own, so the service makes a new task. */
  | { kind: 'again'; task: string };

export interface PlanOptions {
  common: OnePassFields;
  rubricFiles: readonly LocalFile[];
  questionFiles: readonly LocalFile[];
  journal?: Journal;
  ledger?: Ledger;
  /** --mark-again: what this machine marked before is marked again (the journal still resumes). */
  markAgain?: boolean;
  /** --mark-copies: identical answers of one run are each marked on their own. */
  markCopies?: boolean;
  /** Keys are derived (no --idempotency-key): an answer whose task did not mark it can go under a key of its own. */
  replaceFailures?: boolean;
}

export interface RunPlan {
  /** Each answer's identity, by row ('' for rows that are not answers). */
  identities: RowIdentities;
  /** What becomes of each answer that is not simply sent (planOf). */
  plans: Map<number, Plan>;
  /** The rows that are copies of each row sent (or reused), in order: they get its mark. */
  copies: Map<number, number[]>;
  /** With --mark-copies, another row of the same identity for each row that has one: marked on its own, flagged all the same. */
  twins: Map<number, number>;
  /** With --mark-copies, the rows of a content alike in every label too (each student's essay.txt, student id "essay"): their keys hold their paths (keys.ts). */
  alike: Set<number>;
  /** Answers this run will send (and so may be charged for), and their files. */
  toSend: number;
  filesToSend: number;
  /** What the answers sent are priced by: a file each, or the answer itself when it has none (text). */
  unitsToSend: number;
  /** The size of the largest file of the answers sent, in bytes: a price quoted for one file may grow with size. */
  largestFile: number;
  reused: number;
  /** What the answers reused from this machine's ledger would cost if sent (its tasks may be another account's). */
  unitsReused: number;
  /** The first task the ledger names for an answer reused: asked about before the run says it is not sent again (reuse-check.ts). */
  ledgerTask?: string;
  /** The tasks recorded for that answer before it (another server or account at the same address may have been used since), the latest first. */
  ledgerEarlier?: string[];
  /** Answers sent again because their earlier task ended FAILURE or CANCEL (kind 'again'). */
  again: number;
  /** A few of the tasks reused, as said ("task tsk_…", "item 2 of batch tsk_…"), and the rows of the first answers reused, for the note that says so. */
  reusedTasks: string[];
  reusedRows: number[];
  /** Answers the journal knew under the same name with other content: sent as new answers. */
  changed: string[];
  /** Answers the journal knew at all, by content or by name (none, in a journal of other answers: another class's?). */
  journalKnew: number;
}

/** How many answers are read and hashed at once while planning. */
const HASHING = 8;
/** The plan of most answers: held once, not once an answer. */
const SEND: Plan = { kind: 'send' };

/** What becomes of the answer of this row. */
export function planOf(plan: RunPlan, row: number): Plan {
  return plan.plans.get(row) ?? SEND;
}

/** Identities by row, 16 bytes each in one buffer: a district's hold a megabyte or two, not a string each. */
class RowIdentities {
  private readonly bytes: Buffer;
  private readonly known: Uint8Array;
  /** Rows whose files could not be read to plan them: each an identity of its own. */
  private readonly unreadable = new Set<number>();

  constructor(rows: number) {
    this.bytes = Buffer.alloc(rows * 16);
    this.known = new Uint8Array(rows);
  }

  get(row: number): string {
    if (this.unreadable.has(row)) return `unreadable:${row}`;
    return this.known[row] ? this.bytes.toString('hex', row * 16, row * 16 + 16) : '';
  }

  set(row: number, identity: string): void {
    this.bytes.write(identity, row * 16, 16, 'hex');
    this.known[row] = 1;
  }

  setUnreadable(row: number): void {
    this.unreadable.add(row);
  }
}

export async function planRun(answers: Iterable<Answer>, rows: number, options: PlanOptions, signal: AbortSignal): Promise<RunPlan> {
  const materials = cachedHasher();
  const shared = new Set([...options.rubricFiles, ...options.questionFiles].map((file) => file.path));
  const hash: FileHasher = (file) => (shared.has(file.path) ? materials(file) : hashAnswerFile(file));
  const fileParts: KeyedFile[] = [
    ...options.rubricFiles.map((file) => ({ field: 'rubric_files', file })),
    ...options.questionFiles.map((file) => ({ field: 'question_files', file })),
  ];
  const identities = new RowIdentities(rows);
  const fileCounts = new Int32Array(rows);
  // each answer's largest file (at most 20 MiB: MAX_FILE_BYTES), for the cost line
  const largest = new Uint32Array(rows);
  // --mark-copies: each answer's labels, as a number (RunPlan.alike)
  const labels = options.markCopies ? new Int32Array(rows) : undefined;
  const changed: string[] = [];
  let journalKnew = 0;
  const hashing = limiter(HASHING);
  const pending: Promise<void>[] = [];
  // what every answer shares (the model, the options, the rubric and question files) is digested once
  const marking = await markingOf(options.common, fileParts, hash);
  for (const answer of answers) {
    if (signal.aborted) break;
    fileCounts[answer.index] = answer.files.length;
    for (const file of answer.files) largest[answer.index] = Math.max(largest[answer.index], file.size);
    if (labels) labels[answer.index] = labelsSignature(answer);
    pending.push(
      hashing(async () => {
        let identity: string;
        try {
          const text = answer.text ?? loneText(withTextHeld(answer.files, fileParts.length), fileParts.length);
          identity =
            text !== undefined
              ? answerIdentity(marking, { text })
              : answerIdentity(marking, { files: await contentOf(answer.files, hash) });
        } catch {
          // gone or unreadable since the folder was read: sent as it is, its row says why it failed
          identities.setUnreadable(answer.index);
          return;
        }
        identities.set(answer.index, identity);
        if (options.journal?.knows(answer.label, identity)) journalKnew += 1;
        if (options.journal?.changed(answer.label, identity)) changed.push(answer.label);
      }),
    );
    // never more promises than a few pieces of work ahead
    if (pending.length >= 4 * HASHING) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);

  const plans = new Map<number, Plan>();
  const copies = new Map<number, number[]>();
  const twins = new Map<number, number>();
  const alikeGroups = new Map<string, number[]>();
  const firstOf = new Map<string, number>();
  const reusedTasks = new Set<string>();
  const reusedRows: number[] = [];
  let toSend = 0;
  let filesToSend = 0;
  let largestFile = 0;
  let unitsToSend = 0;
  let reused = 0;
  let unitsReused = 0;
  let ledgerTask: string | undefined;
  let ledgerEarlier: string[] | undefined;
  let again = 0;
  const copied = options.markCopies ? sharedIdentities(identities, rows) : undefined;
  for (let row = 0; row < rows; row++) {
    const identity = identities.get(row);
    if (identity === '') continue;
    const first = firstOf.get(identity);
    if (first !== undefined && !options.markCopies) {
      plans.set(row, { kind: 'copy', of: first });
      copies.set(first, [...(copies.get(first) ?? []), row]);
      continue;
    }
    if (first !== undefined) {
      twins.set(row, first);
      if (!twins.has(first)) twins.set(first, row);
    } else firstOf.set(identity, row);
    if (labels && copied?.has(identity)) {
      const alike = `${identity} ${labels[row]}`;
      const group = alikeGroups.get(alike);
      if (group) group.push(row);
      else alikeGroups.set(alike, [row]);
    }
    // the record keeps one task per content: copies marked each on their own are sent, and the service replays each one's own key
    const own = copied?.has(identity) !== true;
    const fromJournal = own ? options.journal?.lookup(identity) : undefined;
    const fromLedger = !own || fromJournal || options.markAgain ? undefined : options.ledger?.lookup(identity);
    const failedBefore = !options.replaceFailures
      ? undefined
      : fromJournal?.kind === 'final' && isUnsuccessfulFinal(fromJournal.status)
        ? fromJournal.taskId
        : fromLedger?.failed
          ? taskOf(fromLedger)
          : undefined;
    if (failedBefore !== undefined) {
      // marked before means marked: a task that did not mark its answer is replaced (and it was never charged)
      plans.set(row, { kind: 'again', task: failedBefore });
      again += 1;
    } else if (fromJournal || fromLedger) {
      plans.set(row, { kind: 'reuse', from: fromJournal ? 'journal' : 'ledger', known: (fromJournal ?? fromLedger)! });
      reused += 1;
      const known = (fromJournal ?? fromLedger)!;
      const task = taskOf(known);
      // an answer sent in a batch is named by the batch and its place in it: the batch id alone is not its task
      if (task !== undefined && reusedTasks.size < 3)
        reusedTasks.add('batchId' in known ? `item ${known.item + 1} of batch ${task}` : `task ${task}`);
      if (reusedRows.length < 3) reusedRows.push(row);
      if (fromLedger) {
        unitsReused += Math.max(1, fileCounts[row]);
        if (ledgerTask === undefined) {
          ledgerTask = task;
          ledgerEarlier = options.ledger
            ?.history(identity)
            .slice(1)
            .flatMap((m) => (m.failed ? [] : [taskOf(m)!]));
        }
      }
      continue;
    }
    toSend += 1;
    filesToSend += fileCounts[row];
    largestFile = Math.max(largestFile, largest[row]);
    unitsToSend += Math.max(1, fileCounts[row]);
  }
  return {
    identities,
    plans,
    copies,
    twins,
    alike: new Set([...alikeGroups.values()].filter((group) => group.length > 1).flat()),
    toSend,
    filesToSend,
    unitsToSend,
    largestFile,
    reused,
    unitsReused,
    ...(ledgerTask !== undefined ? { ledgerTask, ledgerEarlier: ledgerEarlier ?? [] } : {}),
    again,
    reusedTasks: [...reusedTasks],
    reusedRows,
    changed,
    journalKnew,
  };
}

/** An answer's labels (labelsOf: its student id, its files' names) as a number: copies that share every one need their paths in their keys. */
function labelsSignature(answer: Answer): number {
  const files = answer.files.map((file) => ({ field: 'answer_files', file }));
  return Number.parseInt(sha256(canonicalJson(labelsOf({ student_id: answer.studentId }, files))).slice(0, 8), 16) | 0;
}

/** The identities more than one row of the run has (--mark-copies marks each such row on its own). */
function sharedIdentities(identities: RowIdentities, rows: number): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (let row = 0; row < rows; row++) {
    const identity = identities.get(row);
    if (identity === '') continue;
    if (seen.has(identity)) shared.add(identity);
    else seen.add(identity);
  }
  return shared;
}

/**
 * An answer file's SHA-256: a short one's was taken when it was checked (read whole then); a small
 * one is read at once, synchronously (nothing else runs while a run
 * is planned, and a round trip to the thread pool costs about eight times the read of a short
 * answer), a large one streamed from disk.
 */
const hashAnswerFile: FileHasher = async (file) => {
  if (file.data === undefined && file.sha256 !== undefined) return file.sha256;
  if (file.data !== undefined || file.size > ONE_READ_BYTES) return hashFile(file);
  return sha256(readFileSync(file.path));
};

/**
 * A lone plain-text answer with no rubric or question file, its bytes held when it goes as text
 * (loneText): read here only when the check did not digest it (one read too long for its buffer,
 * or a byte order mark, whose text and bytes differ); else its digest already is its text's.
 */
function withTextHeld(files: LocalFile[], materials: number): LocalFile[] {
  const [file] = files;
  if (files.length !== 1 || materials > 0 || file.type !== 'text/plain' || file.data !== undefined) return files;
  if (file.sha256 !== undefined || file.size > ONE_READ_BYTES) return files;
  return [withContent(file)];
}

/** The task (or batch) an earlier mark came from. */
export function taskOf(known: JournalKnown | Marked): string | undefined {
  if ('batchId' in known) return known.batchId;
  return known.taskId;
}

/** Where an earlier mark is, as the journal and the ledger record one: its task, or its batch and item. */
export function markedOf(known: JournalKnown | Marked): Marked | undefined {
  if ('batchId' in known) return { batchId: known.batchId, item: known.item };
  return known.taskId === undefined ? undefined : { taskId: known.taskId };
}
