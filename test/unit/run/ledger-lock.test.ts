// The ledger's lock (src/run/ledger-lock.ts): one run at a time, a lock left by a run that is gone
// taken over, a waiting run told once and stopped by Ctrl-C.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../../src/api/errors.js';
import { LedgerLock } from '../../../src/run/ledger-lock.js';

const ledgerIn = () => join(mkdtempSync(join(tmpdir(), 'kct-lock-')), 'marked-0123456789abcdef.ndjson');
const never = new AbortController().signal;

describe('the ledger lock', () => {
  it('is taken, names its holder, waits for another holder, and is given back', async () => {
    const ledger = ledgerIn();
    const lock = await LedgerLock.take(ledger, never, () => {});
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    const told: string[] = [];
    let second: LedgerLock | undefined;
    const waiting = LedgerLock.take(ledger, never, (holder) => told.push(holder)).then((taken) => (second = taken));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(second).toBeUndefined();
    expect(told).toEqual([expect.stringMatching(new RegExp(`^kct \\(process ${process.pid}, since `))]);
    lock.release();
    await waiting;
    expect(second).toBeDefined();
    second!.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  it('takes over a lock whose run is gone (killed), or one of this process it does not hold', async () => {
    const ledger = ledgerIn();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const path = ledger.replace(/\.ndjson$/, '.lock');
    writeFileSync(path, JSON.stringify({ pid: Number(gone), host: hostname(), since: 'earlier' }));
    const told: string[] = [];
    (await LedgerLock.take(ledger, never, (holder) => told.push(holder))).release();
    writeFileSync(path, JSON.stringify({ pid: process.pid, host: hostname(), since: 'earlier' }));
    (await LedgerLock.take(ledger, never, (holder) => told.push(holder))).release();
    expect(told).toEqual([]);
  });

  it('a run waiting for it stops on Ctrl-C, having sent nothing', async () => {
    const ledger = ledgerIn();
    const lock = await LedgerLock.take(ledger, never, () => {});
    const ctrlC = new AbortController();
    const waiting = LedgerLock.take(ledger, ctrlC.signal, () => ctrlC.abort());
    await expect(waiting).rejects.toBeInstanceOf(InterruptedError);
    await expect(waiting).rejects.toThrow('nothing was sent');
    lock.release();
  });
});
