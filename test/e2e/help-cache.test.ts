// bin/kct.js answers `--help` from the pre-rendered help (dist/help-cache.json) without loading
// the CLI: for every command path, the real bin prints exactly the cached text. That the cache is
// what commander renders is test/integration/help.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runKct } from './harness.js';

const cache = JSON.parse(readFileSync(join(ROOT, 'dist', 'help-cache.json'), 'utf8')) as {
  help: Record<string, string>;
};
const paths = Object.keys(cache.help).filter((path) => path !== '');

describe('the bin serves the cached help', () => {
  it('kct <path> --help prints the cached text for every command path', async () => {
    expect(paths.length).toBeGreaterThan(25);
    // a few at a time: each run is a small CommonJS start, with no ES module loaded
    for (let i = 0; i < paths.length; i += 4) {
      await Promise.all(
        paths.slice(i, i + 4).map(async (path) => {
          const cached = await runKct([...path.split(' '), '--help'], { env: { PATH: process.env.PATH } });
          expect(cached.code, path).toBe(0);
          expect(cached.stdout, path).toBe(cache.help[path]);
        }),
      );
    }
  });
});
