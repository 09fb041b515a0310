// kct batch and the ledger across runs: an item that failed is not "charged again" when sent once
// more, and a batch replayed (the same manifest again, to get its rows) never takes the place of a
// mark made since, by one-pass, say: that answer stays charged, and a new request holding it with
// --mark-again is said to charge it again.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchLedger, type BatchSend } from '../../../src/commands/batch/batch-ledger.js';
import type { ManifestItem } from '../../../src/commands/batch/manifest.js';
import { Ledger } from '../../../src/run/ledger.js';

const BASE = 'http://127.0.0.1:4313/v1';
const ANSWER = 'identity-of-the-answer';

/** A request of one item (the answer), or of two (with a late one): a request's key is its items'. */
function send(tag: string, items = 1): BatchSend {
  const list = Array.from(
    { length: items },
    (_, i) => ({ label: `${tag}${i}`, fields: { model_id: 12, paper_content: `${tag}${i}` } }) as ManifestItem,
  );
  return { body: { evaluations: list.map((item) => item.fields) }, idempotency: 'derive', items: list, at: list.map((_, i) => i) };
}

describe('kct batch and the ledger across runs', () => {
  it('a failed item is not charged again; a replay of its batch after a mark made since leaves that mark the latest', async () => {
    const env = { KCT_STATE_DIR: mkdtempSync(join(tmpdir(), 'kct-batch-ledger-')) };
    const run = async (tag: string, then: (ledger: BatchLedger) => void, late = false): Promise<number> => {
      const sends = [send(tag, late ? 2 : 1)];
      const ledger = BatchLedger.open(env, BASE, late ? [ANSWER, 'identity-of-a-late-answer'] : [ANSWER]);
      await ledger.keyed(sends);
      const again = ledger.chargedAgain();
      then(ledger);
      ledger.close();
      return again;
    };
    // batch A: the item accepted, then it failed (not charged)
    expect(
      await run('A', (ledger) => {
        ledger.accepted(0, 'tsk_A');
        ledger.failed('tsk_A', 0, 0);
      }),
    ).toBe(0);
    // another request with the failed item and a late one: nothing it would charge again
    expect(await run('B', () => {}, true)).toBe(0);
    // the answer marked by one-pass since (charged)
    const { ledger } = Ledger.open(env.KCT_STATE_DIR, BASE);
    ledger!.accepted(ANSWER, { taskId: 'tsk_one_pass' });
    ledger!.close();
    // batch A replayed (the same manifest again, for its rows): it records nothing over that mark
    await run('A', (replay) => {
      replay.accepted(0, 'tsk_A');
      replay.failed('tsk_A', 0, 0);
    });
    expect(Ledger.open(env.KCT_STATE_DIR, BASE).ledger!.lookup(ANSWER)).toEqual({ taskId: 'tsk_one_pass' });
    // so a new request holding it (--mark-again) would charge it again: counted, and said
    expect(await run('C', () => {}, true)).toBe(1);
  });
});
