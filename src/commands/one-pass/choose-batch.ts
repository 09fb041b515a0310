// Whether a run's plain-text answers go 100 to a request (POST /evaluations/batch).

import { UsageError } from '../../api/errors.js';
import { thousands } from '../../api/thousands.js';
import type { Context } from '../../cli/core/context.js';
import { err } from '../../cli/core/io.js';

/** From this many plain-text answers, `--via auto` sends them in batches of 100 when the run has --resume (KCT_BATCH_FROM). */
const BATCH_FROM = 500;

/**
 * --via batch, or --via auto from `batchFrom` plain-text answers when the run has a --resume
 * journal. A batch's key covers the whole request, so only a record of what each batch held (the
 * journal, this machine's ledger) keeps a re-run from charging its answers again: auto never
 * batches without the journal a user carries. A batch is JSON: rubric and question files cannot go with it.
 */
export function chooseBatch(
  via: 'auto' | 'one-pass' | 'batch',
  run: { textAnswers: number; answers: number; files: number; journal: boolean; ledger: boolean; batchFrom?: number; markAgain?: boolean },
  context: Context,
): boolean {
  const batchFrom = run.batchFrom ?? BATCH_FROM;
  if (via === 'one-pass') return false;
  // a batch's key covers what it holds: sent again, it would be the batch sent before, not marked anew
  if (run.markAgain) {
    if (via === 'batch')
      err(
        context.io,
        'kct: --mark-again sends each answer on its own (one-pass): a batch sent again would be answered with the batch sent before',
      );
    return false;
  }
  if (via === 'batch') {
    if (run.files > 0) {
      throw new UsageError('--via batch sends answers as JSON, which cannot carry --rubric-file or --question-file', {
        suggestion:
          'Give the rubric and question as text (--rubric-text, --question-text), or send one answer per request with --via one-pass.',
      });
    }
    if (!run.ledger && !run.journal) {
      throw new UsageError("--via batch needs a record of what each batch held, and this machine's ledger cannot be used", {
        suggestion:
          'Add --resume <journal> (keep the file for later runs), set KCT_STATE_DIR to a folder kct can write to, or use --via one-pass.',
      });
    }
    if (run.textAnswers < run.answers)
      err(
        context.io,
        `kct: --via batch: ${run.answers - run.textAnswers} of ${run.answers} answers are not plain text; they are sent one per request`,
      );
    return true;
  }
  if (run.files > 0 || run.textAnswers < batchFrom || !run.journal || !run.ledger) return false;
  err(
    context.io,
    // said before the plan: how many are sent (not those marked before) is not known yet
    `kct: plain-text answers (${thousands(run.textAnswers)} here) go in batches of up to 100 when sent (POST /evaluations/batch; --via auto from ${batchFrom} with --resume; --via one-pass for one request per answer)`,
  );
  return true;
}
