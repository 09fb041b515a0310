// Test preload (node --import): `kct sandbox` dies like a native crash (SIGKILL, after one last
// line on stderr) on its first status request. Only the sandbox process is affected.
import { subscribe } from 'node:diagnostics_channel';

if (process.argv[2] === 'sandbox') {
  subscribe('http.server.request.start', ({ request }) => {
    if (!request.url.endsWith('/status')) return;
    process.stderr.write('Assertion failed: simulated crash (test/e2e/preload/crash-sandbox.mjs)\n', () =>
      process.kill(process.pid, 'SIGKILL'),
    );
  });
}
