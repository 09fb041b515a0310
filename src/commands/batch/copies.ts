// A manifest's identical items (one identity, src/client/identity.ts: the same answer, model and
// options, whatever their student ids or files are called) are one answer: sent once, charged once,
// and each copy's row is the first one's marks under its own labels, flagged duplicate_of, as
// one-pass does. --mark-copies sends every item as it is.

import { type AnswerOutcome, copyOutcome } from '../../cli/render/outcome.js';
import { hashFile } from '../../client/idempotency.js';
import { identityOf } from '../../client/identity.js';
import type { ManifestItem } from './manifest.js';

export interface DistinctItems {
  /** The items sent, in manifest order: each answer once (every item with --mark-copies). */
  items: ManifestItem[];
  /** The identity of each item sent. */
  identities: string[];
  /** The manifest row of each item sent. */
  rows: number[];
  /** The manifest rows that are copies of each item sent (by its index among those sent). */
  copies: Map<number, number[]>;
  /** How many manifest rows are copies. */
  copyCount: number;
}

export async function distinctItems(manifest: readonly ManifestItem[], markCopies: boolean): Promise<DistinctItems> {
  const all = await Promise.all(manifest.map((item) => identityOf({ ...item.fields }, [], hashFile)));
  const sent: DistinctItems = { items: [], identities: [], rows: [], copies: new Map(), copyCount: 0 };
  const firstOf = new Map<string, number>();
  for (const [row, identity] of all.entries()) {
    const first = markCopies ? undefined : firstOf.get(identity);
    if (first !== undefined) {
      sent.copies.set(first, [...(sent.copies.get(first) ?? []), row]);
      sent.copyCount += 1;
      continue;
    }
    firstOf.set(identity, sent.items.length);
    sent.items.push(manifest[row]);
    sent.identities.push(identity);
    sent.rows.push(row);
  }
  return sent;
}

/** A copy's row: the marks (or the failure) of the item sent, under the copy's own labels (src/cli/render/outcome.ts). */
export function copyRow(outcome: AnswerOutcome, copy: ManifestItem): AnswerOutcome {
  return copyOutcome(outcome, { file: copy.label, student_id: copy.fields.student_id });
}
