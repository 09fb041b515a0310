// The CLI's bundle (scripts/build-bundle.js) is built again while other kct processes run from it:
// CI's slow tier packs and builds while another track runs kct. A build from the same sources leaves
// every file as it was, so a kct that is starting never finds dist/bundle/ missing or half written.
import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT, runKct } from './harness.js';

const BUNDLE = join(ROOT, 'dist', 'bundle');

function snapshot(): Map<string, string> {
  return new Map(
    readdirSync(BUNDLE).map((name) => {
      const stat = statSync(join(BUNDLE, name));
      return [name, `${stat.ino}:${stat.mtimeMs}:${stat.size}`];
    }),
  );
}

it('building the bundle again from the same sources rewrites nothing, and kct runs from it meanwhile', async () => {
  const before = snapshot();
  expect(before.has('main.js')).toBe(true);
  const building = promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'build-bundle.js')], { cwd: ROOT });
  const running = runKct(['version']);
  const [, version] = await Promise.all([building, running]);
  expect(version.code, version.stderr).toBe(0);
  expect(version.stdout).toMatch(/^kct \d+\.\d+\.\d+/);
  expect(snapshot()).toEqual(before);
});
