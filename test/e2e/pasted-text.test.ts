// The built kct names a pasted answer (`--text "..."`) `(text)`: CSV once printed its file cell as
// `'--text` (the formula guard of a cell starting with -). The views and the old label's read-back
// are tested in-process: test/integration/pasted-text-label.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { essay } from './class-fixture.js';
import { tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

describe('a pasted answer, end to end', () => {
  it('its CSV cell is (text), waiting or not, and kct report of the saved run names it so', async () => {
    const dir = tempDir('kct-pasted-e2e-');
    const text = `${essay}\n(pasted, end to end, ${dir})`;
    for (const wait of [[], ['--no-wait']]) {
      const run = await shared.kct(['one-pass', '--text', text, '--model', '12', '--output', 'csv', ...wait]);
      expect(run.code, run.stderr).toBe(0);
      const [header, row] = run.stdout.trim().split('\n');
      expect(header).toMatch(/^file,/);
      expect(row).toMatch(/^\(text\),,tsk_/);
    }
    const saved = join(dir, 'marks.ndjson');
    writeFileSync(saved, (await shared.kct(['one-pass', '--text', text, '--model', '12', '--output', 'ndjson'])).stdout);
    const report = await shared.kct(['report', saved, '--out', join(dir, 'class.html')]);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(join(dir, 'class.html'), 'utf8')).toContain('(text)');
  });
});
