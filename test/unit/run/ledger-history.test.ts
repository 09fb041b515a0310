// The ledger keeps the last few tasks of each identity, the latest first, across runs: another server
// or account at the same address does not know the latest, and the one before may be its own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/run/ledger.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

const BASE = 'http://127.0.0.1:4312/v1';

describe("the ledger's history of an identity", () => {
  it(`is its distinct tasks, the latest first, at most 4, whatever runs recorded them (seed ${propertySeed(6161)})`, () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat(5), { maxLength: 4 }), { minLength: 1, maxLength: 5 }), (runs) => {
        const folder = mkdtempSync(join(tmpdir(), 'kct-ledger-history-'));
        const expected: string[] = [];
        for (const run of runs) {
          const { ledger } = Ledger.open(folder, BASE);
          for (const task of run) ledger!.accepted('answer', { taskId: `tsk_${task}` });
          ledger!.close();
          const history = Ledger.open(folder, BASE).ledger!;
          // a run writes a task unless it is the latest the run read at its start (its index does not grow as it sends)
          const latest = expected[0];
          for (const id of run.map((task) => `tsk_${task}`).filter((id) => id !== latest)) {
            const at = expected.indexOf(id);
            if (at >= 0) expected.splice(at, 1);
            expected.unshift(id);
          }
          expected.splice(4);
          expect(
            history.history('answer').map((m) => ('taskId' in m ? m.taskId : '')),
            JSON.stringify(runs),
          ).toEqual(expected);
          expect(history.lookup('answer')).toEqual(expected[0] === undefined ? undefined : { taskId: expected[0] });
          history.close();
        }
      }),
      { numRuns: propertyRuns(100), seed: propertySeed(6161) },
    );
  });
});
