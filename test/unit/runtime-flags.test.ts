// The V8 flags kct sets at run time (bin/kct.js, `kct sandbox`, src/client/gc-pacer.ts) exist in
// this Node.js: V8 drops an unknown flag with nothing but a line on stderr, so a renamed one would
// silently undo the memory figures of docs/benchmarks.md. .ci/run runs this on Node 20, 22 and 24.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** Every `setFlagsFromString('--name...')` in a source file. */
function flagsSetIn(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/setFlagsFromString\('--([a-z-]+)/g)].map((match) => match[1]);
}

describe(`V8 flags on Node ${process.version}`, () => {
  const known = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });

  it.each(['bin/kct.js', 'src/commands/sandbox/run.ts', 'src/client/gc-pacer.ts'])('%s sets only flags this V8 knows', (file) => {
    const flags = flagsSetIn(file);
    expect(flags.length).toBeGreaterThan(0);
    for (const flag of flags) expect(known, `--${flag}`).toMatch(new RegExp(`^\\s+--${flag} `, 'm'));
  });

  it('gc() reaches a fresh context once --expose-gc is set at run time (the upload pacer)', () => {
    // In a child: setting --expose-gc here would change this test process.
    const out = execFileSync(process.execPath, ['-e', `
      require('node:v8').setFlagsFromString('--expose-gc');
      const gc = require('node:vm').runInNewContext('gc');
      gc({ type: 'minor' }); gc();
      process.stdout.write(typeof gc);
    `], { encoding: 'utf8' });
    expect(out).toBe('function');
  });

  it('paceFullCollections runs full (major) collections until stopped (big marking runs, marking-run.ts)', () => {
    // In a child, from dist/ (npm test builds first): pacing sets --expose-gc for its process.
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', `
      import { PerformanceObserver, constants } from 'node:perf_hooks';
      const { paceFullCollections } = await import(${JSON.stringify(join(ROOT, 'dist', 'client', 'gc-pacer.js'))});
      const stop = paceFullCollections(5);
      const alive = setInterval(() => {}, 1000); // the pacer's timer is unref'd
      await new Promise((seen) => {
        const observer = new PerformanceObserver((list) => {
          if (list.getEntries().some((e) => e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) { observer.disconnect(); seen(); }
        });
        observer.observe({ entryTypes: ['gc'] });
      });
      stop();
      clearInterval(alive);
      process.stdout.write('major');
    `], { encoding: 'utf8', timeout: 60_000 });
    expect(out).toBe('major');
  });
});
