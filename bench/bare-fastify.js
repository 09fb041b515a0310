#!/usr/bin/env node
// The floor of the sandbox request-rate benchmark: a bare route on the same framework (fastify,
// the sandbox's version), no authentication, no database, answering the JSON body given in
// BENCH_BODY (the sandbox's own answer to the same request) with a request id header.
// Prints one JSON line {"base_url"} once it listens on a free loopback port; stops on SIGTERM.
import Fastify from 'fastify';

const body = JSON.parse(process.env.BENCH_BODY ?? '{"data":{"task_id":"tsk_bench","status":"SUCCESS"}}');
const app = Fastify({ logger: false });
app.get('/v1/evaluations/:taskId/status', async (_request, reply) => {
  reply.header('x-request-id', 'req_bench');
  return body;
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ base_url: `http://127.0.0.1:${app.server.address().port}/v1` })}\n`);
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
