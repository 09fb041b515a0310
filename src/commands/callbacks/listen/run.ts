// kct callbacks listen: a local receiver for batch callbacks (like `stripe listen`). It verifies
// each delivery's Standard Webhooks signature (400 when it does not verify, so the sender retries),
// with --forward-to passes the delivery on unchanged, prints the event, and only then answers:
// 204, or the forward's status. What it handled and what it did not is kept in deliveries.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UnhandledDeliveriesError } from '../../../api/errors.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { listenProblem } from '../../../cli/core/listen-errors.js';
import { loopbackCallbackUrl } from '../../../cli/core/loopback.js';
import { exporterFor } from '../../../cli/render/export.js';
import { webhookSecretKey } from '../webhook-secret.js';
import { verifyWebhook, webhookEvent } from '../webhook-signature.js';
import type { command } from './command.js';
import { Deliveries } from './deliveries.js';
import { type Delivery, EVENT_COLUMNS, eventLine, eventRecord } from './view.js';

type Options = OptionsOf<typeof command>;

/** A batch record of 100 items with their feedback is well under this. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const FORWARD_TIMEOUT_MS = 10_000;
/** Deliveries named in the error's message; --json's names the first 100. */
const NAMED = 5;

export async function run(options: Options, context: Context): Promise<void> {
  const { port, host, count: limit, forwardTo } = options;
  const key = await webhookSecretKey(options.secretFile, context.env);

  // each event as it comes: json too is a line an event, since the listener's output never ends as one document
  const events = await (await exporterFor(options, context)).stream(EVENT_COLUMNS, {
    events: true,
    record: eventRecord,
    line: eventLine,
  });
  const deliveries = new Deliveries();
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let outputError: NodeJS.ErrnoException | undefined;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const server = createServer((request, response) => {
    const handling = handle(request, response)
      .catch((error: unknown) => {
        context.notice('warning', `a delivery could not be handled: ${(error as Error).message}`);
        if (!response.headersSent) response.writeHead(500).end();
      })
      .finally(() => inFlight.delete(handling));
    inFlight.add(handling);
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
    try {
      verifyWebhook(key, body, headers);
    } catch (error) {
      context.notice('warning', `refused a delivery to ${request.url ?? '/'}: ${(error as Error).message} (answered 400)`);
      response.writeHead(400).end();
      return;
    }
    const id = headers['webhook-id'];
    if (stopping) {
      context.notice(
        'warning',
        `turned away delivery ${id}: the listener is stopping (answered 503, so the sender delivers it again later)`,
        {
          webhook_id: id,
        },
      );
      response.writeHead(503).end();
      return;
    }
    let event: unknown;
    let eventError: string | undefined;
    try {
      event = webhookEvent(body);
    } catch (error) {
      eventError = (error as Error).message;
      context.notice('warning', `delivery ${id} is signed correctly, but ${eventError}: printed without an event`, { webhook_id: id });
    }
    const forwarded = forwardTo ? await forward(forwardTo, body, request, headers, context.signal) : undefined;
    const taken = forwarded === undefined || (forwarded.status >= 200 && forwarded.status < 300);
    const delivery: Delivery = {
      id,
      timestamp: headers['webhook-timestamp'],
      duplicate: deliveries.isRepeat(id),
      forwarded,
      event,
      eventError,
    };
    await new Promise<void>((resolve) => {
      events.row(delivery, (error) => {
        // answered here, at once: a stream's 'error' that follows may end the process (a closed pipe: 141)
        if (error) {
          response.writeHead(503).end();
          deliveries.missed(id, `not printed: ${(error as NodeJS.ErrnoException).code ?? error.message}`);
          outputError ??= error;
          finish();
        } else {
          response.writeHead(forwarded?.status ?? 204).end();
          if (taken) deliveries.took(id);
          else notTaken(id, forwarded!);
          if (limit !== undefined && deliveries.handled >= limit) finish();
        }
        resolve();
      });
    });
  }

  function notTaken(id: string, forwarded: { status: number; error?: string }): void {
    deliveries.missed(id, forwarded.error ?? `${forwardTo?.href} answered HTTP ${forwarded.status}`);
    context.notice(
      'warning',
      `delivery ${id} was not taken by ${forwardTo?.href}: ${forwarded.error ? `${forwarded.error}: is your receiver running there?` : `it answered HTTP ${forwarded.status}`}; answered ${forwarded.status}, so the sender delivers it again later`,
      { webhook_id: id, forwarded_status: forwarded.status },
    );
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
  const callbackUrl = loopbackCallbackUrl(address.address, address.port);
  if (callbackUrl)
    context.notice(
      'next',
      `Pass it to a batch with --callback-url ${callbackUrl}${callbackUrl === url ? '' : ' (its loopback address: kct batch takes a plain-http callback only to this machine)'}`,
      { callback_url: callbackUrl },
    );
  else
    context.notice(
      'note',
      `kct batch takes no --callback-url ${url}: plain http only to this machine (listen on --host 127.0.0.1 for that); else an https URL that reaches this port`,
    );

  const onAbort = () => finish();
  context.signal.addEventListener('abort', onAbort, { once: true });
  if (context.signal.aborted) finish();
  await done;
  context.signal.removeEventListener('abort', onAbort);
  // deliveries under way finish (a forward, a line) before the connections close: each is answered as it was handled
  stopping = true;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await Promise.allSettled([...inFlight]);
  server.closeAllConnections();
  await closed;
  await events.end();
  context.notice('progress', `stopped listening after ${deliveries.handled} event${deliveries.handled === 1 ? '' : 's'}`, {
    events: deliveries.handled,
  });
  const unhandled = deliveries.unhandled();
  if (unhandled.length > 0) throw unhandledError(unhandled, deliveries.handled, context.signal.aborted, outputError, forwardTo);
}

/** The error of a listener that stopped with deliveries it never handled, naming them. */
function unhandledError(
  unhandled: [string, string][],
  handled: number,
  interrupted: boolean,
  outputError: NodeJS.ErrnoException | undefined,
  forwardTo: URL | undefined,
): UnhandledDeliveriesError {
  const n = unhandled.length;
  const named = unhandled
    .slice(0, NAMED)
    .map(([id, why]) => `${id} (${why})`)
    .join(', ');
  const stopped = outputError
    ? `cannot print to standard output (${outputError.code ?? outputError.message}), so stopped listening`
    : interrupted
      ? 'interrupted'
      : `stopped after ${handled} event${handled === 1 ? '' : 's'}`;
  return new UnhandledDeliveriesError(
    `${stopped}; ${n === 1 ? '1 delivery was' : `${n} deliveries were`} never handled: ${named}${n > NAMED ? ` and ${n - NAMED} more` : ''}`,
    unhandled.slice(0, 100).map(([id]) => id),
    interrupted && outputError === undefined,
    {
      suggestion: `Their sender delivers them again for a while: run kct callbacks listen again on the same port${forwardTo ? `, with your receiver at ${forwardTo.href} running,` : ''} to take them.`,
    },
  );
}

/** Passes the delivery on as it came; the sender sees the forward's status (502 when it failed). */
async function forward(
  url: URL,
  body: Buffer,
  request: IncomingMessage,
  headers: Record<string, string>,
  stop: AbortSignal,
): Promise<{ status: number; error?: string }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': header(request, 'content-type') || 'application/json', ...headers },
      redirect: 'manual',
      signal: AbortSignal.any([stop, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]),
    });
    await response.body?.cancel();
    return { status: response.status };
  } catch (error) {
    if (stop.aborted) return { status: 502, error: 'forward stopped: the listener was interrupted' };
    const cause = (error as { cause?: { code?: string } }).cause;
    return { status: 502, error: `forward failed (${cause?.code ?? (error as Error).message})` };
  }
}

/** The body as its bytes: the signature is over them. */
async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function header(request: IncomingMessage, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}
