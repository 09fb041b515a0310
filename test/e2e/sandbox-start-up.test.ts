// What `kct sandbox` loads to start: no HTTP client. undici comes with the first outbound request
// (a batch callback, an asset URL, an LLM engine); most sandboxes make none, and it was a quarter of
// start-up's CPU (docs/benchmarks.md, "Sandbox start-up"). The list comes from bench/module-list.js.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, startSandbox, tempDir } from './harness.js';

it('kct sandbox starts and answers without loading undici', async () => {
  const list = join(tempDir(), 'modules.txt');
  const sandbox = await startSandbox({
    nodeArgs: ['--import', join(ROOT, 'bench', 'module-list.js')],
    env: { BENCH_MODULES_FILE: list },
  });
  try {
    const credits = await fetch(`${sandbox.baseUrl}/credits`, { headers: { 'x-api-key': sandbox.keys.user } });
    expect(credits.status).toBe(200);
  } finally {
    await sandbox.stop();
  }
  const modules = readFileSync(list, 'utf8');
  // the list is real: the server's own framework is on it
  expect(modules).toMatch(/node_modules\/fastify\//);
  expect(modules).not.toMatch(/node_modules\/undici\//);
});
