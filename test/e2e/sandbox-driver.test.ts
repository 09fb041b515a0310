// `kct sandbox` with no SQLite driver it can use says which and what to do (exit 2), before
// anything is created; with the default driver it prints only its own lines (node:sqlite's
// experimental warning on Node 22 is dropped).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kctEnv, runKct, startSandbox, tempDir } from './harness.js';

const [major, minor] = process.versions.node.split('.').map(Number);
const hasNodeSqlite = major > 22 || (major === 22 && minor >= 13);

describe('kct sandbox and its SQLite driver', () => {
  it('an unknown KCT_SQLITE_DRIVER is refused with the names it takes (exit 2)', async () => {
    const run = await runKct(['sandbox', '--port', '0', '--data', tempDir()], { env: kctEnv(tempDir(), { KCT_SQLITE_DRIVER: 'sqlite3' }) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error: KCT_SQLITE_DRIVER="sqlite3" is not a SQLite driver kct knows');
    expect(run.stderr).toContain('hint: Use node:sqlite or better-sqlite3, or unset KCT_SQLITE_DRIVER to let kct choose.');
    expect(run.stdout).toBe('');
  });

  it.runIf(!hasNodeSqlite)('KCT_SQLITE_DRIVER=node:sqlite on Node 20 names the Node.js that has it (exit 2)', async () => {
    const run = await runKct(['sandbox', '--port', '0', '--data', tempDir()], {
      env: kctEnv(tempDir(), { KCT_SQLITE_DRIVER: 'node:sqlite' }),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `error: node:sqlite is not available in Node.js ${process.version}: it comes with Node.js 22.13 and later`,
    );
  });

  it(`the default driver (${hasNodeSqlite ? 'node:sqlite' : 'better-sqlite3'} here) starts with nothing on stderr, not even a warning`, async () => {
    const sandbox = await startSandbox();
    try {
      const response = await fetch(`${sandbox.baseUrl}/credits`, { headers: { 'x-api-key': sandbox.keys.user } });
      expect(response.status).toBe(200);
    } finally {
      await sandbox.stop();
    }
    expect(sandbox.process.exitCode).toBe(143); // stopped by SIGTERM, cleanly (README: exit codes)
    expect(sandbox.stderr()).toBe('');
  });
});

describe("the clone's install says when the sandbox cannot open SQLite (scripts/check-sqlite.js, run by prepare)", () => {
  const check = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, [join(import.meta.dirname, '../../scripts/check-sqlite.js')], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });

  it('silent when it can; a warning with what to do when it cannot, and the install goes on (exit 0)', () => {
    const fine = check({ KCT_SQLITE_DRIVER: '' });
    expect([fine.status, fine.stderr]).toEqual([0, '']);
    // the driver this runtime does not use: node:sqlite on Node 20, better-sqlite3 (built for Node 20 by the install) on 22 and 24
    const other = check({ KCT_SQLITE_DRIVER: hasNodeSqlite ? 'better-sqlite3' : 'node:sqlite' });
    expect(other.status).toBe(0);
    expect(other.stderr).toMatch(/^\nkct: warning: .*(node:sqlite is not available|better-sqlite3)/);
    expect(other.stderr).toContain('kct: every command but the sandbox works as it is.');
  });
});
