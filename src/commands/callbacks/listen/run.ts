// kct callbacks listen: a local receiver for batch callbacks (like `stripe listen`). It verifies
// each delivery's Standard Webhooks signature, prints the event, answers 204 (400 when the
// signature does not verify, so the sender retries), and with --forward-to passes the delivery on
// unchanged and answers with the forward's status.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../../../api/errors.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { listenProblem } from '../../../cli/core/listen-errors.js';
import { exporterFor } from '../../../cli/render/export.js';
import type { Column } from '../../../cli/render/rows.js';
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

  // each event as it comes: json too is a line an event, since the listener's output never ends as one document
  const events = await (await exporterFor(options, context)).stream(EVENT_COLUMNS, {
    events: true,
    record: eventRecord,
    line: (d) => `${receivedAt(d)}  ${d.id}  ${describeEvent(d)}`,
  });
  const seen: string[] = [];
  let received = 0;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      context.notice('warning', `a delivery could not be handled: ${(error as Error).message}`);
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
      context.notice('warning', `refused a delivery to ${request.url ?? '/'}: ${(error as Error).message} (answered 400)`);
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
    // the event is still printed; stderr says why the sender will deliver it again
    if (forwarded && forwarded.status >= 400)
      context.notice(
        'warning',
        `delivery ${id} was not taken by ${forwardTo?.href}: ${forwarded.error ? `${forwarded.error}: is your receiver running there?` : `it answered HTTP ${forwarded.status}`}; answered ${forwarded.status}, so the sender delivers it again later`,
        { webhook_id: id, forwarded_status: forwarded.status },
      );
    received += 1;
    events.row({ id, timestamp: headers['webhook-timestamp'], duplicate, forwarded, event });
    if (limit !== undefined && received >= limit) finish();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenProblem(error, host, port)));
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/`;
  context.notice(
    'progress',
    `listening for batch callbacks on ${url}${forwardTo ? `, forwarding them to ${forwardTo}` : ''}${limit ? `; stopping after ${limit}` : ''} (Ctrl-C to stop)`,
    { url },
  );
  context.notice('next', `Pass it to a batch with --callback-url ${url}`);

  const onAbort = () => finish();
  context.signal.addEventListener('abort', onAbort, { once: true });
  if (context.signal.aborted) finish();
  await done;
  context.signal.removeEventListener('abort', onAbort);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await events.end();
  context.notice('progress', `stopped listening after ${received} event${received === 1 ? '' : 's'}`, { events: received });
}

interface Delivery {
  id: string;
  timestamp: string;
  duplicate: boolean;
  forwarded?: { status: number; error?: string };
  event: unknown;
}

/** An event's fields, read leniently: the table's line says what it can. */
function eventData(delivery: Delivery): { event: Record<string, unknown>; data: Record<string, unknown> } {
  const event = isPlainObject(delivery.event) ? delivery.event : {};
  return { event, data: isPlainObject(event.data) ? event.data : {} };
}

/** What a person reads of an event: its type, task, status and counts, on one line. */
function describeEvent(delivery: Delivery): string {
  const { event, data } = eventData(delivery);
  const counts = ['succeeded', 'failed', 'cancelled']
    .filter((key) => typeof data[key] === 'number' && (data[key] as number) > 0)
    .map((key) => `${data[key] as number} ${key}`);
  return [
    String(event.type ?? 'event'),
    String(data.task_id ?? ''),
    String(data.status ?? ''),
    typeof data.count === 'number'
      ? `${data.count} item${data.count === 1 ? '' : 's'}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`
      : '',
    delivery.duplicate ? '(repeat delivery)' : '',
    delivery.forwarded ? `-> ${delivery.forwarded.error ?? `HTTP ${delivery.forwarded.status}`}` : '',
  ]
    .filter(Boolean)
    .join('  ');
}

function receivedAt(delivery: Delivery): string {
  return new Date(Number(delivery.timestamp) * 1000 || Date.now()).toISOString();
}

/** What json and ndjson print of a delivery: its headers' values and the event as signed. */
function eventRecord(delivery: Delivery): Record<string, unknown> {
  return {
    webhook_id: delivery.id,
    webhook_timestamp: Number(delivery.timestamp),
    duplicate: delivery.duplicate,
    ...(delivery.forwarded ? { forwarded_status: delivery.forwarded.status } : {}),
    ...(delivery.forwarded?.error ? { forward_error: delivery.forwarded.error } : {}),
    event: delivery.event,
  };
}

/** What csv prints of a delivery (json and ndjson print eventRecord, the table a line). */
const EVENT_COLUMNS: Column<Delivery>[] = [
  { name: 'webhook_id', header: 'Delivery', value: (d) => d.id },
  { name: 'webhook_timestamp', header: 'Time', value: (d) => Number(d.timestamp) },
  { name: 'duplicate', header: 'Repeat', value: (d) => d.duplicate },
  { name: 'forwarded_status', header: 'Forwarded', value: (d) => d.forwarded?.status ?? null },
  { name: 'type', header: 'Event', value: (d) => eventData(d).event.type ?? null },
  { name: 'task_id', header: 'Task', value: (d) => eventData(d).data.task_id ?? null },
  { name: 'status', header: 'Status', value: (d) => eventData(d).data.status ?? null },
  { name: 'count', header: 'Items', value: (d) => eventData(d).data.count ?? null },
];

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
