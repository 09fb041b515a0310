// temporary: peak RSS of one --no-wait run at N answers, with KCT_PROBE env toggles
import { writeClass, richSandbox, kct } from './scale.js';
import { kctEnv, removeDir, tempDir } from './lib.js';
const n = Number(process.argv[2] ?? 20000);
const dir = writeClass(n);
const sandbox = await richSandbox();
try {
  for (const extra of (process.argv[3] ?? '').split(';')) {
    const env = { ...kctEnv(tempDir('kct-probe-cfg-')), KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys.user, ...Object.fromEntries(extra.split(',').filter(Boolean).map((kv) => kv.split('='))) };
    const run = await kct(['one-pass', dir, '--model', '12', '--no-wait', '--via', 'one-pass', '--jobs', '16', '--max-rps', '2000', '--output', 'ndjson', '--idempotency-key', `probe${Date.now()}`], env);
    console.log(`${n} answers [${extra}]: ${run.rssMB.toFixed(1)} MB, ${(run.ms / 1000).toFixed(1)} s, code ${run.code}, rows ${run.lines.length}`);
  }
} finally {
  await sandbox.stop();
  removeDir(dir);
}
