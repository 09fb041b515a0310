// This machine's ledger is kept per server address, and more than one server (or account) can answer
// there: a sandbox started afresh on the same port, a school key and a personal key. A server is
// never charged twice for an answer it had marked, however the servers alternate at that address and
// however the class is relabelled: the tasks each answer had before are kept, and asked about in turn.
// (A teacher was charged 14 credits again: the second sandbox's tasks had replaced the first's.)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, creditsOf, FIXTURES, type Sandbox, startSandbox, tempDir } from './harness.js';

const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');

/** Two sandboxes, each with its own data, taking turns on one port: one of them runs at a time. */
class TwoServers {
  private running?: { which: number; sandbox: Sandbox };
  private port?: string;
  private readonly data = [tempDir('kct-server-a-'), tempDir('kct-server-b-')];

  async use(which: number): Promise<Sandbox> {
    if (this.running?.which === which) return this.running.sandbox;
    await this.running?.sandbox.stop();
    const sandbox = await startSandbox({ dataDir: this.data[which], args: this.port ? ['--port', this.port] : [] });
    this.port ??= new URL(sandbox.baseUrl).port;
    expect(new URL(sandbox.baseUrl).port).toBe(this.port);
    this.running = { which, sandbox };
    return sandbox;
  }

  async stop(): Promise<void> {
    await this.running?.sandbox.stop();
    this.running = undefined;
  }
}

/** The class under labels of its own (the folder, the file names): the same three answers. */
function classAs(tag: string, variant: number): string {
  const dir = join(tempDir('kct-ledger-accounts-'), `class-${variant}`);
  mkdirSync(dir);
  for (let i = 1; i <= 3; i++) writeFileSync(join(dir, `v${variant}-pupil-${i}.txt`), `${essay}\n(${tag} ${i})`);
  return dir;
}

describe('servers taking turns at one address', () => {
  it('charge each server once for each answer, whatever the order and the labels', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(0, 1), fc.nat(2)), { minLength: 2, maxLength: 5 }), async (steps) => {
        const tag = `ledger accounts ${runs++} ${Date.now()}`;
        const machine = tempDir('kct-ledger-machine-'); // one machine: one config and state folder for both servers
        const servers = new TwoServers();
        const marked = new Set<number>();
        try {
          for (const [step, [server, variant]] of steps.entries()) {
            const kct = asUser(await servers.use(server), 'user', machine);
            const before = await creditsOf(kct);
            const run = await kct(['one-pass', classAs(tag, variant), '--model', '12', '--output', 'ndjson']);
            expect(run.code, run.stderr).toBe(0);
            const charged = before - (await creditsOf(kct));
            expect(charged, `step ${step}: server ${server}, labels ${variant}\n${run.stderr}`).toBe(marked.has(server) ? 0 : 3);
            // what kct said before sending: not sent again exactly when nothing is charged, naming
            // only tasks of the rows (this server's), never the other server's
            if (marked.has(server)) expect(run.stderr).not.toContain('sent again as a new task, and charged');
            const named = /were sent before \(([^)]*)\)/.exec(run.stderr)?.[1].match(/tsk_\w+/g) ?? [];
            const followed = new Set(run.stdout.match(/tsk_\w+/g) ?? []);
            for (const task of named) expect(followed.has(task), `${task} named, not followed\n${run.stderr}`).toBe(true);
            marked.add(server);
          }
        } finally {
          await servers.stop();
        }
      }),
      {
        examples: [
          // the walkthrough: A marks, B marks the class renamed, A marks it renamed again
          [
            [
              [0, 0],
              [1, 1],
              [0, 1],
            ],
          ],
        ],
        numRuns: 3 + propertyRuns(3),
        seed: propertySeed(5151),
      },
    );
  }, 120_000);
});
