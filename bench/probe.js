// The latency probe of bench/stall.js and test/reliability/stall.test.ts, in a process of its
// own so that the load it measures (uploads sent by the parent) cannot delay it: GET /credits
// with one key, one keep-alive connection, one request every `interval` ms, until its stdin
// closes; then one JSON line on stdout: {"ms": [...], "statuses": [...]}.
// Usage: node bench/probe.js <base_url> <key> [interval_ms]
import { Agent, request } from 'undici';

const [baseUrl, key, interval = '5'] = process.argv.slice(2);
const dispatcher = new Agent({ connections: 1 });
let done = false;
process.stdin.on('end', () => {
  done = true;
});
process.stdin.resume();
const ms = [];
const statuses = [];
while (!done) {
  const started = performance.now();
  try {
    const res = await request(`${baseUrl}/credits`, { headers: { 'x-api-key': key }, dispatcher });
    await res.body.text();
    statuses.push(res.statusCode);
  } catch {
    statuses.push(0);
  }
  ms.push(performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, Number(interval)));
}
await dispatcher.close();
process.stdout.write(`${JSON.stringify({ ms, statuses })}\n`);
