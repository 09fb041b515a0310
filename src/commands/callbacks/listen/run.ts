// kct callbacks listen: a local receiver for batch callbacks (like `stripe listen`). It verifies
// each delivery's Standard Webhooks signature, prints the event, answers 204 (400 when the
// signature does not verify, so the sender retries), and with --forward-to passes the delivery on
// unchanged and answers with the forward's status.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../../../api/errors.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { err, out } from '../../../cli/core/io.js';
import { isPlainObject } from '../../../client/envelope.js';
import { webhookSecret } from '../webhook-secret.js';
import { verifyWebhook, webhookKey } from '../webhook-signature.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

/** A batch record of 100 items with their feedback is well under this. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const FORWARD_TIMEOUT_MS = 10_000;
/** Deliveries are at least once: repeats of the last ids are marked as such. */
const REMEMBERED_IDS = 1000;

export async function run(options: Options, context: Context): Promise<void> {
  const { port, host, count: limit, forwardTo } = options;
  const secret = await webhookSecret(options.secretFile, context.env);
  let key: Buffer;
  try {
    key = webhookKey(secret);
  } catch (error) {
    throw new UsageError(`the webhook secret is not usable: ${(error as Error).message}`, {
      suggestion: 'Use the whsec_... secret the service (or `kct sandbox`) printed.',
    });
  }

  const seen: string[] = [];
  let received = 0;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      err(context.io, `kct: a delivery could not be handled: ${(error as Error).message}`);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const body = await readBody(request);
    if (body === undefined) {
      response.writeHead(413).end();
      return;
    }
    const headers = {
      'webhook-id': header(request, 'webhook-id'),
      'webhook-timestamp': header(request, 'webhook-timestamp'),
      'webhook-signature': header(request, 'webhook-signature'),
    };
    let event: unknown;
    try {
      event = verifyWebhook(key, body, headers);
    } catch (error) {
      err(context.io, `kct: refused a delivery to ${request.url ?? '/'}: ${(error as Error).message} (answered 400)`);
      response.writeHead(400).end();
      return;
    }
    if (limit !== undefined && received >= limit) {
      response.writeHead(503).end();
      return;
    }
    const id = headers['webhook-id'];
    const duplicate = seen.includes(id);
    if (!duplicate) {
      seen.push(id);
      if (seen.length > REMEMBERED_IDS) seen.shift();
    }
    const forwarded = forwardTo ? await forward(forwardTo, body, request, headers) : undefined;
    response.writeHead(forwarded?.status ?? 204).end();
    received += 1;
    print(context, { id, timestamp: headers['webhook-timestamp'], duplicate, forwarded, event });
    if (limit !== undefined && received >= limit) finish();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, host, port)));
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/`;
  err(
    context.io,
    `kct: listening for batch callbacks on ${url}${forwardTo ? `, forwarding them to ${forwardTo}` : ''}${limit ? `; stopping after ${limit}` : ''} (Ctrl-C to stop)`,
  );
  err(context.io, `kct: pass it to a batch with --callback-url ${url}`);

  const onAbort = () => finish();
  context.signal.addEventListener('abort', onAbort, { once: true });
  if (context.signal.aborted) finish();
  await done;
  context.signal.removeEventListener('abort', onAbort);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!options.json) context.note(`kct: stopped listening after ${received} event${received === 1 ? '' : 's'}`);
}

function print(
  context: Context,
  delivery: { id: string; timestamp: string; duplicate: boolean; forwarded?: { status: number; error?: string }; event: unknown },
): void {
  if (context.globals.json) {
    out(
      context.io,
      JSON.stringify({
        webhook_id: delivery.id,
        webhook_timestamp: Number(delivery.timestamp),
        duplicate: delivery.duplicate,
        ...(delivery.forwarded ? { forwarded_status: delivery.forwarded.status } : {}),
        event: delivery.event,
      }),
    );
    return;
  }
  const event = isPlainObject(delivery.event) ? delivery.event : {};
  const data = isPlainObject(event.data) ? event.data : {};
  const counts = ['succeeded', 'failed', 'cancelled']
    .filter((key) => typeof data[key] === 'number' && (data[key] as number) > 0)
    .map((key) => `${data[key] as number} ${key}`);
  const parts = [
    String(event.type ?? 'event'),
    String(data.task_id ?? ''),
    String(data.status ?? ''),
    typeof data.count === 'number' ? `${data.count} items${counts.length > 0 ? ` (${counts.join(', ')})` : ''}` : '',
    delivery.duplicate ? '(repeat delivery)' : '',
    delivery.forwarded ? `-> ${delivery.forwarded.error ?? `HTTP ${delivery.forwarded.status}`}` : '',
  ];
  out(
    context.io,
    `${new Date(Number(delivery.timestamp) * 1000 || Date.now()).toISOString()}  ${delivery.id}  ${parts.filter(Boolean).join('  ')}`,
  );
}

/** Passes the delivery on as it came; the sender sees the forward's status (502 when it failed). */
async function forward(
  url: URL,
  body: string,
  request: IncomingMessage,
  headers: Record<string, string>,
): Promise<{ status: number; error?: string }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': header(request, 'content-type') || 'application/json', ...headers },
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { status: response.status };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { status: 502, error: `forward failed (${cause?.code ?? (error as Error).message})` };
  }
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function header(request: IncomingMessage, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): unknown {
  if (error.code === 'EADDRINUSE')
    return new UsageError(`port ${port} on ${host} is already in use`, {
      suggestion: 'Pick another with --port (--port 0 takes any free port).',
    });
  if (error.code === 'EADDRNOTAVAIL')
    return new UsageError(`cannot listen on ${host}: no such address on this machine`, { suggestion: 'Use --host 127.0.0.1.' });
  if (error.code === 'EACCES')
    return new UsageError(`not allowed to listen on port ${port}`, { suggestion: 'Use a port above 1023, or --port 0.' });
  return error;
}
