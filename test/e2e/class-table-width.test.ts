// The class table on a terminal fits its width, as gh's tables do (issue 24): at 80 columns the task
// ids are left out (said on a line) and long paths and names are cut; at 200 every cell is whole.
// Piped it is whole, unless COLUMNS gives it a width.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { answering, kctEnv, ROOT, runKct, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

function longNamedClass(): string {
  const dir = tempDir('kct-wide-');
  const late = join(dir, 'late-submissions-second-attempt');
  mkdirSync(late);
  for (let i = 1; i <= 3; i++)
    copyFileSync(join(ROOT, 'examples', 'sample-essay.txt'), join(late, `Aleksandra Konstantinopoulou-Wilkinson_1234567${i}.txt`));
  copyFileSync(join(ROOT, 'examples', 'sample-essay.txt'), join(dir, 'a.txt'));
  return dir;
}

async function tableAt(columns: number, dir: string): Promise<string[]> {
  const env = kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user });
  const run = await answering(['one-pass', dir, '--recursive', '--model', '12'], env, [], columns);
  expect(run.code, run.output).toBe(0);
  const lines = stripVTControlCharacters(run.output).split(/\r?\n/);
  const table = lines.filter((line) => /^[┌│└]/.test(line));
  expect(table.length, run.output).toBe(7); // top, head, 4 rows, bottom
  return lines;
}

describe('the class table in a terminal', () => {
  it('fits 80 columns: task ids left out with a note, paths cut from the left, names from the right', async () => {
    const lines = await tableAt(80, longNamedClass());
    const table = lines.filter((line) => /^[┌│└]/.test(line));
    for (const line of table) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(table.join('\n')).not.toContain('tsk_');
    expect(lines.join('\n')).toContain('task ids left out to fit 80 columns');
    expect(table.join('\n')).toMatch(/…[^│]*_12345671\.txt/);
    expect(table.join('\n')).toMatch(/Aleksandra [^│]*…/);
  });

  it('at 200 columns shows every cell whole, task ids included', async () => {
    const lines = await tableAt(200, longNamedClass());
    const table = lines.filter((line) => /^[┌│└]/.test(line)).join('\n');
    expect(table).toContain('late-submissions-second-attempt/Aleksandra Konstantinopoulou-Wilkinson_12345671.txt');
    expect(table).toMatch(/tsk_[0-9a-f]+/);
    expect(lines.join('\n')).not.toContain('task ids left out');
  });
});

describe('the class table piped', () => {
  const piped = async (extra: Record<string, string>) => {
    const env = kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user, ...extra });
    const run = await runKct(['one-pass', longNamedClass(), '--recursive', '--model', '12'], { env });
    expect(run.code, run.stderr).toBe(0);
    return run.stdout.split('\n');
  };

  it('is whole, as wide as it needs', async () => {
    const lines = await piped({});
    expect(lines.join('\n')).toContain('late-submissions-second-attempt/Aleksandra Konstantinopoulou-Wilkinson_12345671.txt');
    expect(Math.max(...lines.map((line) => [...line].length))).toBeGreaterThan(100);
  });

  it('fits COLUMNS when it is set (COLUMNS=80 kct … > marks.txt), and says the width it fitted', async () => {
    const lines = await piped({ COLUMNS: '80' });
    const table = lines.filter((line) => /^[┌│└]/.test(line));
    expect(table).toHaveLength(7);
    for (const line of table) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(lines.join('\n')).toContain('task ids left out to fit 80 columns');
    // a value that is no width is ignored, as shells ignore it
    expect((await piped({ COLUMNS: 'wide' })).join('\n')).toContain('Konstantinopoulou-Wilkinson_12345671.txt');
  });

  it('at COLUMNS=40 the line naming what was left out is wrapped to 40 columns too, as in every table', async () => {
    const lines = await piped({ COLUMNS: '40' });
    const end = lines.findIndex((line) => line.startsWith('└'));
    const note = lines.slice(end + 1, lines.findIndex((line, i) => i > end && line.endsWith(')')) + 1);
    expect(note.join(' '), lines.join('\n')).toBe('(task ids left out to fit 40 columns: --output csv or ndjson has them)');
    for (const line of note) expect([...line].length, line).toBeLessThanOrEqual(40);
  });
});
