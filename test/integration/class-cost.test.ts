// What a class run costs, said twice (issue 24): the price the service quotes with the first task it
// accepts, before the rest are sent, and the credits charged in the summary after, which must be
// what the account's balance lost; a re-run says its answers were sent before and charges nothing.
import { appendFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { creditsOf, ROOT, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

describe('the cost of a class run', () => {
  it('quotes the price before sending the rest, and the summary states what the balance lost; a re-run is free and says so', async () => {
    const dir = tempDir('kct-cost-');
    for (const name of ['ana.txt', 'ben.txt', 'cy.txt']) copyFileSync(join(ROOT, 'examples', 'sample-essay.txt'), join(dir, name));
    // three different answers: the same bytes would be one charge and two duplicates
    appendFileSync(join(dir, 'ben.txt'), '\nA second ending.');
    appendFileSync(join(dir, 'cy.txt'), '\nA third ending.');
    const before = await creditsOf(shared.kct);
    const first = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'table']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(
      'kct: cost: the service quoted 1 credit for the first answer (1 file: 1 credit a file); 3 answers (3 files) to mark, about 3 credits at that rate (charged only for answers marked)',
    );
    const charged = before - (await creditsOf(shared.kct));
    expect(charged).toBe(3);
    expect(first.stdout).toContain(`Credits: ${charged} charged by this run`);

    const again = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'table']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/kct: cost:/);
    expect(again.stderr).toMatch(/3 answers of 3 were sent before .*: not sent again: kct follows their tasks for their marks/);
    expect(again.stdout).toContain('Credits: 0 charged by this run; 3 answers sent before, not charged again');
    expect(before - (await creditsOf(shared.kct))).toBe(3);
  });
});
