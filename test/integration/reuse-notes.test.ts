// What a run says, before sending, of answers this machine sent before, against a real sandbox: it
// promises "not charged again" only when the service knows the tasks the ledger names (a ledger is
// per server, not per account), a key the service refuses gets no such note (and every row), and a task
// that was cancelled is not called a mark. Property: the note's promise is what the credits show.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, creditsOf, FIXTURES, parseJson, startSandbox, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
let made = 0;

function textClass(count: number, tag: string): string {
  const dir = join(tempDir('kct-reuse-notes-'), 'class');
  mkdirSync(dir);
  made += 1;
  for (let i = 1; i <= count; i++) writeFileSync(join(dir, `pupil-${i}.txt`), `${essay}\n(${tag} ${made} ${i})`);
  return dir;
}

describe('answers sent before, on a server that does not know their tasks', () => {
  it(`says they are not sent again only when nothing is charged for them (seed ${propertySeed(7301)})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 }), fc.boolean(), async (count, added, reset) => {
        const dir = textClass(count, 'reuse promise');
        const configDir = tempDir('kct-one-machine-');
        const before = await startSandbox();
        const port = new URL(before.baseUrl).port;
        try {
          expect((await asUser(before, 'user', configDir)(['one-pass', dir, '--model', '12', '--output', 'ndjson'])).code).toBe(0);
        } finally {
          if (reset) await before.stop();
        }
        for (let i = 1; i <= added; i++) writeFileSync(join(dir, `added-${i}.txt`), `${essay}\n(added ${made} ${i})`);
        // the same address: the same server, or a new one whose tasks are none of the ledger's
        const after = reset ? await startSandbox({ args: ['--port', port] }) : before;
        try {
          const kct = asUser(after, 'user', configDir);
          const credits = await creditsOf(kct);
          const run = await kct(['one-pass', dir, '--model', '12', '--output', 'ndjson']);
          expect(run.code, run.stderr).toBe(0);
          const charged = credits - (await creditsOf(kct));
          expect(run.stderr.includes('not sent again'), run.stderr).toBe(!reset);
          expect(run.stderr.includes('the service does not know task'), run.stderr).toBe(reset);
          expect(charged, run.stderr).toBe(reset ? count + added : added);
          // and at its end, the run says which were charged though marked before
          const known = `${count} answer${count === 1 ? '' : 's'} marked before on this machine ${count === 1 ? 'was' : 'were'} not known to the service`;
          expect(run.stderr.includes(known), run.stderr).toBe(reset);
        } finally {
          await after.stop();
        }
      }),
      { numRuns: propertyRuns(4), seed: propertySeed(7301) },
    );
  });
});

describe('a key the service refuses, on a machine that sent the answers before', () => {
  it('promises nothing of them, and every row is printed, as for answers never sent (exit 4)', async () => {
    const dir = textClass(2, 'refused key');
    // and one whose task ended FAILURE: "sent again as a new task" was said before the key was refused
    writeFileSync(join(dir, 'failed.txt'), `${essay}\nKCT-SANDBOX-FAIL (refused key ${made})`);
    const configDir = tempDir('kct-one-machine-');
    expect((await asUser(shared.sandbox, 'user', configDir)(['one-pass', dir, '--model', '12', '--output', 'ndjson'])).code).toBe(3);
    const wrongKey = { env: { KCT_API_KEY: 'kct_sbx_notakeyatallnotakeyatall' } };
    const wrong = await asUser(shared.sandbox, 'user', configDir)(['one-pass', dir, '--model', '12', '--json'], wrongKey);
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).not.toContain('sent before');
    expect(wrong.stderr).not.toContain('not charged again');
    expect(parseJson<unknown[]>(wrong.stdout)).toHaveLength(3);
  });
});

describe('an answer identical to one of another class, marked before', () => {
  it('is named in the note, so the teacher knows which student it is', async () => {
    const earlier = textClass(2, 'another class');
    const configDir = tempDir('kct-one-machine-');
    const kct = asUser(shared.sandbox, 'user', configDir);
    expect((await kct(['one-pass', earlier, '--model', '12', '--output', 'ndjson'])).code).toBe(0);
    const now = textClass(1, 'this class');
    writeFileSync(join(now, 'Bo Chen.txt'), readFileSync(join(earlier, 'pupil-2.txt')));
    const run = await kct(['one-pass', now, '--model', '12', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/1 answer of 2 was sent before \([^;]*Bo Chen\.txt; the same content, model and options; task tsk_/);
  });
});

describe('the same sandbox as localhost and as 127.0.0.1', () => {
  it('is one ledger: answers relabelled between the two names are not charged again', async () => {
    const dir = textClass(2, 'loopback names');
    const configDir = tempDir('kct-one-machine-');
    const kct = asUser(shared.sandbox, 'user', configDir);
    expect((await kct(['one-pass', dir, '--model', '12', '--output', 'ndjson'])).code).toBe(0);
    const credits = await creditsOf(kct);
    const localhost = { env: { KCT_BASE_URL: shared.sandbox.baseUrl.replace('127.0.0.1', 'localhost') } };
    const again = await kct(['one-pass', dir, '--model', '12', '--student-id-from', 'none', '--output', 'ndjson'], localhost);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('2 answers of 2 were sent before');
    expect(await creditsOf(kct)).toBe(credits);
  });
});

describe('answers whose earlier task was cancelled', () => {
  it.each([
    ['this machine', false],
    ['a --resume journal', true],
  ])(
    '(known from %s) are not said to have a mark to reuse: sent again as new tasks, and the cost line counts them to mark',
    async (_, resume) => {
      const dir = textClass(3, 'KCT-SANDBOX-SLOW cancelled');
      const configDir = tempDir('kct-one-machine-');
      const journal = resume ? ['--resume', join(tempDir('kct-journal-'), 'run.journal')] : [];
      const kct = asUser(shared.sandbox, 'user', configDir);
      const credits = await creditsOf(kct);
      const first = await kct(['one-pass', dir, '--model', '12', '--no-wait', '--output', 'ndjson', ...journal]);
      expect(first.code, first.stderr).toBe(0);
      const [task, other] = first.stdout
        .trim()
        .split('\n')
        .map((line) => parseJson<{ task_id: string }>(line).task_id);
      for (const id of [task, other]) expect((await kct(['cancel', id])).code).toBe(0);
      const again = await kct(['one-pass', dir, '--model', '12', '--output', 'ndjson', ...journal]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toMatch(/mark is reused|marks are reused/);
      expect(again.stderr).toContain(`${task} did not mark it: sent again, as a new task`);
      expect(again.stderr).toContain(`${other} did not mark it: sent again, as a new task`);
      // said when the first is accepted: the other may not be known unmarked yet, never "3 … not charged again"
      const cost = again.stderr.split('\n').find((line) => line.startsWith('kct: cost:'));
      expect(cost).toMatch(
        /([12]) answers? \(\1 files?\) to mark, \1 of them sent before, their earlier task not having marked them, about \1 credits?/,
      );
      expect(cost).not.toContain('3 answers sent before are not charged again');
      // the third marked by its first task, the two cancelled by their new ones
      expect(credits - (await creditsOf(kct))).toBe(3);
    },
  );
});

describe('--no-wait says what it does with answers sent before', () => {
  it('prints their tasks\' state, not "follows their tasks", and never offers to follow tasks it has none of', async () => {
    const dir = textClass(2, 'no-wait wording');
    const kct = asUser(shared.sandbox, 'user', tempDir('kct-one-machine-'));
    expect((await kct(['one-pass', dir, '--model', '12', '--no-wait', '--output', 'csv'])).code).toBe(0);
    const again = await kct(['one-pass', dir, '--model', '12', '--no-wait', '--output', 'csv']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/not sent again: kct prints their tasks' state now, under the names they have now/);
    expect(again.stderr).not.toContain('kct follows');
    // a key the service refuses: nothing accepted, nothing to follow
    const refused = await kct(['one-pass', textClass(2, 'no-wait refused'), '--model', '12', '--no-wait', '--json'], {
      env: { KCT_API_KEY: 'kct_sbx_not_a_key' },
    });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('Submitted: 0 of 2 answers accepted; none to follow');
  });
});

describe('two servers at one address, an answer cancelled on one', () => {
  it('is marked again there, and the mark of the other server is still reused when it is back: each charged once', async () => {
    const dir = textClass(1, 'KCT-SANDBOX-SLOW two servers');
    const configDir = tempDir('kct-one-machine-');
    const [firstData, secondData] = [tempDir('kct-server-a-'), tempDir('kct-server-b-')];
    let server = await startSandbox({ dataDir: firstData });
    const port = new URL(server.baseUrl).port;
    const at = (data: string) => startSandbox({ dataDir: data, args: ['--port', port] });
    const mark = async (...more: string[]) => {
      const run = await asUser(server, 'user', configDir)(['one-pass', dir, '--model', '12', '--output', 'ndjson', ...more]);
      return { ...run, task: parseJson<{ task_id: string }>(run.stdout.trim()).task_id };
    };
    try {
      const onA = await mark();
      expect(onA.code, onA.stderr).toBe(0);
      await server.stop();
      server = await at(secondData);
      // the other server: it knows no task of the ledger's, so it marks the answer itself; cancelled there
      const sent = await mark('--no-wait');
      expect((await asUser(server, 'user', configDir)(['cancel', sent.task])).code).toBe(0);
      const credits = await creditsOf(asUser(server, 'user', configDir));
      const onB = await mark();
      expect(onB.code, onB.stderr).toBe(0);
      expect(onB.stderr).toContain(`${sent.task} did not mark it: sent again, as a new task`);
      expect(credits - (await creditsOf(asUser(server, 'user', configDir)))).toBe(1);
      await server.stop();
      // back to the first: its mark is reused, not charged again (the cancelled task did not wipe what the ledger knew)
      server = await at(firstData);
      const before = await creditsOf(asUser(server, 'user', configDir));
      const back = await mark();
      expect(back.code, back.stderr).toBe(0);
      expect(back.task).toBe(onA.task);
      expect(await creditsOf(asUser(server, 'user', configDir))).toBe(before);
    } finally {
      await server.stop();
    }
  });
});
