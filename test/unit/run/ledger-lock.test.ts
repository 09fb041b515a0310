// The ledger's lock (src/run/ledger-lock.ts): one run at a time, a lock left by a run that is gone
// taken over, a waiting run told once and stopped by Ctrl-C.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
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
    expect(told).toEqual([expect.stringMatching(new RegExp(`^kct \\(process ${process.pid}, since .*\\) holds ${lock.path}$`))]);
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

  it("takes over a lock nobody touched for a minute, wherever its run was (another host, a pid now another program's)", async () => {
    const ledger = ledgerIn();
    const path = ledger.replace(/\.ndjson$/, '.lock');
    // a live process on this machine that is not kct: its pid says nothing, the lock's age does
    writeFileSync(path, JSON.stringify({ pid: process.ppid, host: 'old-container-3f2a', since: 'yesterday' }));
    const old = new Date(Date.now() - 61_000);
    utimesSync(path, old, old);
    const told: string[] = [];
    (await LedgerLock.take(ledger, never, (holder) => told.push(holder))).release();
    expect(told).toEqual([]);
  });

  it('a run waiting for it stops on Ctrl-C, having sent nothing, and is told which file to remove if no run is going', async () => {
    const ledger = ledgerIn();
    const lock = await LedgerLock.take(ledger, never, () => {});
    const ctrlC = new AbortController();
    const waiting = LedgerLock.take(ledger, ctrlC.signal, () => ctrlC.abort());
    await expect(waiting).rejects.toBeInstanceOf(InterruptedError);
    await expect(waiting).rejects.toThrow('nothing was sent');
    await expect(waiting).rejects.toMatchObject({ suggestion: expect.stringContaining(`if no kct run is going, remove ${lock.path}`) });
    lock.release();
  });
});
