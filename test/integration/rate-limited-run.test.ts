// A class run against a service that limits its rate (issue 34): the sandbox started with
// --rate-limit answers 429 with Retry-After past a few requests a second per key; kct, with no
// --max-rps, finds that pace, honours every Retry-After, and ends with every answer marked and each
// charged once. The pace policy alone, on a virtual clock: test/unit/budget.test.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { essay } from '../e2e/class-fixture.js';
import { creditsOf, parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox({ args: ['--rate-limit', '4'] });

describe('a class run against a rate-limited service', () => {
  it('finds the pace, honours Retry-After, and charges every answer once', async () => {
    const dir = tempDir('kct-rate-limited-');
    for (let i = 1; i <= 12; i++) writeFileSync(join(dir, `pupil-${i}.txt`), `${essay}\n(rate limited ${dir} ${i})`);
    const before = await creditsOf(shared.kct);
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--jobs', '8', '--output', 'ndjson', '--debug'], {
      env: { KCT_POLL_INTERVAL: '200ms' },
      timeoutMs: 170_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => parseJson<{ status: string; task_id: string }>(line));
    expect(rows).toHaveLength(12);
    expect(rows.every((row) => row.status === 'SUCCESS')).toBe(true);
    expect(new Set(rows.map((row) => row.task_id)).size).toBe(12);
    // the service said no, more than once, and kct waited as told
    expect(run.stderr).toMatch(/< 429/);
    // and the run says so at its end, with the pace it found
    expect(run.stderr).toMatch(
      /note: the service limited the pace: \d+ requests? answered 429 or 503, each sent again after its wait; the run sent about [\d.]+ requests a second on average/,
    );
    expect(before - (await creditsOf(shared.kct))).toBe(12);
  }, 180_000);
});
