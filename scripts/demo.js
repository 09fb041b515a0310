// npm run demo: start a sandbox on a free port, mark the bundled sample essay, print the score
// table, stop. Everything runs offline with throwaway data.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'kct.js');
const work = mkdtempSync(join(tmpdir(), 'kct-demo-'));

const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--json', '--data', join(work, 'data'), '--latency', '150'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const first = await new Promise((resolve, reject) => {
  createInterface({ input: sandbox.stdout }).once('line', resolve);
  sandbox.once('exit', (code) => reject(new Error(`the sandbox stopped (exit ${code})`)));
});
const { base_url: baseUrl, keys } = JSON.parse(first);
console.error(`Sandbox running at ${baseUrl}. Marking examples/sample-essay.txt with model 12 ...\n`);

const essay = join(root, 'examples', 'sample-essay.txt');
const env = { ...process.env, KCT_BASE_URL: baseUrl, KCT_API_KEY: keys.user, KCT_CONFIG_DIR: join(work, 'config'), KCT_POLL_INTERVAL: '200ms' };
const code = await new Promise((resolve) => {
  spawn(process.execPath, [bin, 'one-pass', essay, '--model', '12', '--student-id', 'demo-student'], { stdio: 'inherit', env }).once('exit', resolve);
});

sandbox.kill('SIGTERM');
await new Promise((resolve) => sandbox.once('exit', resolve));
rmSync(work, { recursive: true, force: true });
console.error(`\nDone. Try it yourself: kct sandbox   (then follow the printed instructions)`);
process.exitCode = code ?? 1;
