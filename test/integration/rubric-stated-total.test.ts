// A teacher's rubric that says "Total: 20 marks" while its criteria add up to 21: the sandbox's
// preview says what the rubric states (stated_total, and the total_score it makes when none was
// sent), and `kct models new` refuses it (exit 2) before anything is created, naming both numbers
// and what to do; --total-score decides. kct main() in-process on a fake terminal, against a real
// sandbox; the guided flow under a real pseudo-terminal is test/e2e/models-guided.test.ts.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectFile, KctClient } from '../../src/index.js';
import { kctEnv, parseJson, ROOT, removeDir, runKct, tempDir, useSandbox } from './harness.js';

const PAPER = join(ROOT, 'examples', 'question-paper.txt');
const CRITERIA = ['Thesis (5 marks)', 'Use of evidence (6 marks)', 'Organisation (5 marks)', 'Style (5 marks)'];
/** Criteria worth 21 in all, under a rubric that says 20. */
const MISMATCHED = ['Persuasive letter rubric', 'Total: 20 marks', ...CRITERIA].join('\n');
const UNSTATED = ['Persuasive letter rubric', ...CRITERIA].join('\n');

const shared = useSandbox();
const work = tempDir('kct-stated-total-');
afterAll(() => removeDir(work));
const file = (name: string, text: string) => {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
};

async function modelCount(): Promise<number> {
  const run = await shared.kct(['models', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return parseJson<unknown[]>(run.stdout).length;
}

/** `kct models new` as on a person's terminal (CI unset), with the sandbox's user key. */
const guided = (args: string[]) =>
  runKct(['models', 'new', ...args], {
    tty: true,
    columns: 100,
    env: { ...kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user }), CI: undefined },
  });

describe('a rubric that states one total while its criteria add up to another', () => {
  it('the preview says the stated total, takes it for the total when none was sent, and says the two differ', async () => {
    const client = new KctClient({ baseUrl: shared.sandbox.baseUrl, apiKey: shared.sandbox.keys.user });
    try {
      const stated = await client.rubricsPreview({ fields: {}, files: [await inspectFile(file('stated.txt', MISMATCHED))] });
      expect(stated).toMatchObject({ stated_total: 20, total_score: 20, criteria_total: 21 });
      expect(stated.warnings).toContain('The rubric states a total of 20, but its criteria add up to 21.');
      // a total sent wins; what the rubric states is still said
      const sent = await client.rubricsPreview({ fields: { total_score: 21 }, files: [await inspectFile(file('sent.txt', MISMATCHED))] });
      expect(sent).toMatchObject({ stated_total: 20, total_score: 21 });
      const none = await client.rubricsPreview({ fields: {}, files: [await inspectFile(file('unstated.txt', UNSTATED))] });
      expect(none).toMatchObject({ stated_total: null, total_score: 21 });
      expect((none.warnings as string[]).join(' ')).not.toContain('states a total');
    } finally {
      await client.close();
    }
  });

  it('kct models new, a sum without --total-score: refused (exit 2) naming both numbers and what to do; nothing created or kept', async () => {
    const before = await modelCount();
    const dir = join(work, 'guided');
    const rubric = file('rubric.txt', MISMATCHED);
    const run = await guided([PAPER, '--rubric', rubric, '--cum-method', 'sum', '--dir', dir, '--yes']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`error: the rubric (${rubric}) states a total of 20, but its criteria's maxima add up to 21`);
    expect(run.stderr).toContain(
      "hint: Fix the rubric (a criterion's maximum, or the total it states) and run again, or pass --total-score 21 to mark out of what its criteria add up to.",
    );
    expect(run.stderr).not.toContain('3/5');
    expect(existsSync(join(dir, 'rubrics.yaml')) || existsSync(join(dir, 'questions.yaml'))).toBe(false);
    expect(await modelCount()).toBe(before);
  });

  it('kct models new with a rubric that states no total goes on to the previews, the total being what its criteria add up to', async () => {
    const run = await guided([
      PAPER,
      '--rubric',
      file('unstated-rubric.txt', UNSTATED),
      '--cum-method',
      'sum',
      '--dir',
      join(work, 'unstated'),
    ]);
    // past the total, to the editing step (no $EDITOR: it waits for Enter, and stdin has ended)
    expect(run.stderr).toContain('Total score: 21, what the criteria add up to.');
    expect(run.stderr).toContain('3/5 Check and edit the previews');
    expect(run.stderr).not.toContain('states a total');
  });
});
