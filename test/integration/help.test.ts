// Every command documents itself: --help with examples, and the pre-rendered help that
// bin/kct.js serves at start-up is exactly what commander prints, rendered here in-process. That
// the bin serves it is test/e2e/help-cache.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runKct } from './harness.js';

const cache = JSON.parse(readFileSync(join(ROOT, 'dist', 'help-cache.json'), 'utf8')) as {
  help: Record<string, string>;
};
const paths = Object.keys(cache.help);

describe('--help', () => {
  it('covers every command, from the top level down', () => {
    for (const command of [
      '',
      'one-pass',
      'batch',
      'assign',
      'evaluate',
      'status',
      'result',
      'cancel',
      'upload',
      'rewrite',
      'ingest questions',
      'ingest rubrics',
      'models',
      'models create',
      'auth login',
      'config set',
      'sandbox',
      'callbacks verify',
      'credits',
      'doctor',
      'api',
      'completion',
      'version',
      'callbacks listen',
      'auth status',
      'keys create',
      'keys list',
      'keys revoke',
    ]) {
      expect(paths, command).toContain(command);
    }
  });

  it.each(paths.filter((path) => path !== ''))('kct %s --help has examples and matches the live rendering', async (path) => {
    const text = cache.help[path];
    expect(text).toMatch(/\nExamples:\n {2}\$ .*kct /);
    const live = await runKct([...path.split(' '), '--help'], { env: { PATH: process.env.PATH, KCT_NO_HELP_CACHE: '1' } });
    expect(live.code).toBe(0);
    expect(live.stdout).toBe(text);
  });
});
