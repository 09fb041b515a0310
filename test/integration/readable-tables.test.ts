// Walk h8, defects 2, 10 and 11, against a real sandbox in-process: a general table is whole when
// piped and fits a terminal by leaving columns out (never "read|y"); the pager never starts where
// it would wait for keys no one presses (TERM=dumb, CI); a batch's failed callback is in the table.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kctEnv, parseJson, ROOT, runKct, tempDir, useSandbox } from './harness.js';

// callbacks to this machine, and their 7 attempts over 18 hours in about 70 ms
const shared = useSandbox({ args: ['--allow-private-callbacks', '--time-scale', '1000000'] });
const EXAMPLES = join(ROOT, 'examples');

/** kct on a terminal (fake: isTTY and a width) with no CI, as a person runs it. */
function onTerminal(args: string[], columns: number, extra: Record<string, string | undefined> = {}) {
  const env = {
    ...kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user }),
    CI: undefined,
    ...extra,
  };
  return runKct(args, { env, tty: true, columns });
}

describe('kct models and kct upload tables', () => {
  it('kct models on a 40-column terminal leaves columns out and says so; no word is split or cut', async () => {
    const run = await onTerminal(['models'], 40, { KCT_PAGER: '' });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length, run.stdout).toBeLessThanOrEqual(40);
    // the note is wrapped to the terminal too
    expect(lines.slice(-2).join(' ')).toBe('(Total, Method, Criteria left out to fit 40 columns: --json has them)');
    expect(run.stdout).toMatch(/│ ready +│/);
    expect(run.stdout).toMatch(/│ training +│/);
    expect(run.stdout).not.toContain('…');
    expect(run.stdout).toMatch(/│ Persuasive essay: +│/);
  });

  it('kct models piped is whole, one line a model, whatever width the terminal would have', async () => {
    const run = await shared.kct(['models'], { columns: 40 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/│ 12 │ Persuasive essay: school uniforms +│ ready +│ 20 +│ sum +│ 4 +│/);
    expect(run.stdout).not.toContain('left out');
  });

  it('kct upload on a 100-column terminal: the URL leaves no room, so nothing is squeezed; at 120 the type is left out', async () => {
    const files = [join(EXAMPLES, 'rubric.pdf'), join(EXAMPLES, 'question-paper.docx')];
    const narrow = await onTerminal(['upload', ...files], 100);
    expect(narrow.code, narrow.stderr).toBe(0);
    expect(narrow.stdout).toMatch(
      /│ question-paper\.docx │ application\/vnd\.openxmlformats-officedocument\.wordprocessingml\.document │ \d+ +│ http:\/\/\S+\/question-paper\.docx │/,
    );
    const wide = await onTerminal(['upload', ...files], 120);
    expect(wide.stdout).toMatch(/│ question-paper\.docx │ \d+ +│ http:\/\/\S+\/question-paper\.docx │/);
    expect(wide.stdout.trimEnd().split('\n').at(-1)).toBe('(Type left out to fit 120 columns: --json has it)');
    for (const line of wide.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
  });
});

describe('the pager', () => {
  /** A pager that keeps what it is given in a file, for PAGER. */
  function recorder(): { PAGER: string; paged: () => string | undefined } {
    const dir = tempDir('kct-pager-');
    mkdirSync(join(dir, 'bin'));
    const script = join(dir, 'bin', 'record-pager');
    writeFileSync(script, `#!/bin/sh\ncat > "${join(dir, 'paged')}"\n`);
    chmodSync(script, 0o755);
    return { PAGER: script, paged: () => (existsSync(join(dir, 'paged')) ? readFileSync(join(dir, 'paged'), 'utf8') : undefined) };
  }

  it('on a terminal that can page, PAGER takes the output (the control for the cases below)', async () => {
    const pager = recorder();
    const run = await onTerminal(['models'], 100, { TERM: 'xterm', PAGER: pager.PAGER });
    expect(run.code, run.stderr).toBe(0);
    expect(pager.paged()).toContain('Persuasive essay');
  });

  it('TERM=dumb, or no TERM, or CI: no pager; the output is printed', async () => {
    for (const extra of [{ TERM: 'dumb' }, { TERM: undefined }, { TERM: 'xterm', CI: 'true' }]) {
      const pager = recorder();
      const run = await onTerminal(['models'], 100, { ...extra, PAGER: pager.PAGER });
      expect(run.code, run.stderr).toBe(0);
      expect(pager.paged(), JSON.stringify(extra)).toBeUndefined();
      expect(run.stdout).toContain('Persuasive essay');
    }
  });

  it('a dumb terminal still runs the pager named in KCT_PAGER', async () => {
    const pager = recorder();
    const run = await onTerminal(['models'], 100, { TERM: 'dumb', KCT_PAGER: pager.PAGER });
    expect(run.code, run.stderr).toBe(0);
    expect(pager.paged()).toContain('Persuasive essay');
  });
});

describe('a batch whose callback failed', () => {
  it('kct result and kct status say so in one line, from the callback --json prints', async () => {
    const manifest = join(tempDir('kct-cb-'), 'one.jsonl');
    writeFileSync(
      manifest,
      `${JSON.stringify({ paper_content: 'Schools should not require uniforms, because students choose.', student_id: 'ada' })}\n`,
    );
    const sent = await shared.kct(['batch', manifest, '--model', '12', '--callback-url', 'http://127.0.0.1:1/', '--no-wait', '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    const [{ task_id: id }] = parseJson<{ task_id: string }[]>(sent.stdout);
    let callback: { status?: string; attempts?: number; last_error?: string } = {};
    for (const deadline = Date.now() + 30_000; callback.status !== 'failed'; ) {
      if (Date.now() > deadline) throw new Error(`the callback did not fail: ${JSON.stringify(callback)}`);
      callback = parseJson<{ callback?: typeof callback }>((await shared.kct(['result', id, '--json'])).stdout).callback ?? {};
      if (callback.status !== 'failed') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const line = `Callback to 127.0.0.1:1 failed after ${callback.attempts} attempts: ${callback.last_error}`;
    expect(callback.attempts).toBe(7);
    const result = await shared.kct(['result', id]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')).toContain(line);
    const status = await shared.kct(['status', id]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout.split('\n')).toEqual([`${id}  SUCCESS (completed) · 1 of 1 item succeeded.`, line, '']);
    // the machine formats are the record as the service sent it
    expect((await shared.kct(['status', id, '--json'])).stdout).not.toContain('Callback to');
  });
});
