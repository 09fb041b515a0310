// npm run demo: start a sandbox on a free port, mark the bundled sample essay, print the score
// table, stop. Everything runs offline with throwaway data. A sandbox that dies is said at once,
// with its last lines on stderr, and the demo exits non-zero.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'kct.js');
const work = mkdtempSync(join(tmpdir(), 'kct-demo-'));
/** How long kct may take to notice a dead sandbox itself (its retries) before the demo stops it. */
const NOTICE_MS = 15_000;

const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--json', '--data', join(work, 'data'), '--latency', '150'], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
const lastLines = [];
createInterface({ input: sandbox.stderr }).on('line', (line) => {
  lastLines.push(line);
  if (lastLines.length > 20) lastLines.shift();
});
const sandboxExit = new Promise((resolve) => sandbox.once('exit', (code, signal) => resolve({ code, signal })));

let code;
try {
  code = await demo();
} finally {
  if (sandbox.exitCode === null && sandbox.signalCode === null) sandbox.kill('SIGTERM');
  await sandboxExit;
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = code;

async function demo() {
  const first = await Promise.race([
    new Promise((resolve) => createInterface({ input: sandbox.stdout }).once('line', resolve)),
    sandboxExit,
  ]);
  if (typeof first !== 'string') return died(first, 'before it was ready');
  const { base_url: baseUrl, keys } = JSON.parse(first);
  console.error(`Sandbox running at ${baseUrl}. Marking examples/sample-essay.txt with model 12 ...\n`);

  const essay = join(root, 'examples', 'sample-essay.txt');
  const env = {
    ...process.env,
    KCT_BASE_URL: baseUrl,
    KCT_API_KEY: keys.user,
    KCT_CONFIG_DIR: join(work, 'config'),
    KCT_POLL_INTERVAL: '200ms',
  };
  const kct = spawn(process.execPath, [bin, 'one-pass', essay, '--model', '12', '--student-id', 'demo-student'], { stdio: 'inherit', env });
  const kctExit = new Promise((resolve) => kct.once('exit', (exitCode) => resolve(exitCode ?? 1)));
  const outcome = await Promise.race([kctExit.then((exitCode) => ({ exitCode })), sandboxExit.then((stopped) => ({ stopped }))]);
  if (outcome.stopped) {
    // kct notices by itself within its retries (exit 9); it is stopped if it has not by then.
    const timer = setTimeout(() => kct.kill('SIGTERM'), NOTICE_MS);
    await kctExit;
    clearTimeout(timer);
    return died(outcome.stopped, 'while kct was marking the essay');
  }
  console.error(`\nDone. Try it yourself: kct sandbox   (then follow the printed instructions)`);
  return outcome.exitCode;
}

/** Says that the sandbox stopped, how, and what it last wrote; the demo's exit code. */
function died({ code: exitCode, signal }, when) {
  const how = signal ? `killed by ${signal}` : `exit code ${exitCode}`;
  console.error(`\ndemo: the sandbox stopped unexpectedly (${how}) ${when}.`);
  if (lastLines.length > 0) console.error(`demo: its last lines on stderr:\n${lastLines.map((line) => `  ${line}`).join('\n')}`);
  else console.error('demo: it wrote nothing on stderr.');
  console.error(`demo: Node.js ${process.version}; see docs/guides/install.md, "Supported Node.js versions".`);
  return 1;
}
