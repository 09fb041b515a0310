// The HTTP server under the sandbox's fastify app, set up like a server on the internet
// (docs/sandbox.md, "Connections and timeouts"): every request must arrive within its time, a
// connection that goes quiet is closed, one client address and one key hold a bounded number of
// connections (connection-caps.ts), and a refused request ends with its status, not a reset.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { newRequestId } from '../store/ids.js';
import type { ConnectionCapLimits, ConnectionCaps } from './connection-caps.js';

export interface ConnectionLimits extends ConnectionCapLimits {
  /** The whole request (headers and body) must arrive within this, ms (Node's requestTimeout). */
  requestTimeoutMs: number;
  /** The headers must arrive within this, ms (Node's headersTimeout). */
  headersTimeoutMs: number;
  /** A connection that sends nothing for this long while the sandbox waits for it is closed, ms. */
  idleTimeoutMs: number;
}

/** A refused request's body is read and thrown away up to this size, so the connection stays usable. */
const DRAIN_LIMIT = 1024 * 1024;
/** After a refusal on a connection that must close: how long what the client still sends is read before the socket is closed. */
const LINGER_MS = 2_000;
/** ... and how much of it, at most: reading more would only spend the request thread's time. */
const LINGER_BYTES = 256 * 1024;

const TRACKED = Symbol('kct.request');
const LINGERING = Symbol('kct.lingering');
const READ_AT_LAST_ANSWER = Symbol('kct.readAtLastAnswer');
const LAST_REQUEST = Symbol('kct.lastRequest');

interface TrackedSocket extends Socket {
  [TRACKED]?: { req: IncomingMessage; res: ServerResponse };
  [LINGERING]?: boolean;
  /** Bytes read once the last request had been read whole: more since, and no request, means headers begun. */
  [READ_AT_LAST_ANSWER]?: number;
  /** The last request answered (its body may still be arriving, to be thrown away). */
  [LAST_REQUEST]?: IncomingMessage;
}

/** Each request's id, given by fastify (genReqId): an answer written under fastify's feet (a 408) carries the same. */
const REQUEST_IDS = new WeakMap<IncomingMessage, string>();

/** fastify's `genReqId`: a new id, kept with the request. */
export function requestIdFor(req: IncomingMessage): string {
  const id = newRequestId();
  REQUEST_IDS.set(req, id);
  return id;
}

/** Where the answers written here are logged, as fastify's are (`--log`); set once per server. */
type Log = ((line: string) => void) | undefined;

/** The fastify `serverFactory`: an HTTP/1.1 server with the sandbox's limits. */
export function sandboxServer(limits: ConnectionLimits, caps: ConnectionCaps, log?: (line: string) => void) {
  return (handler: (req: IncomingMessage, res: ServerResponse) => void): Server => {
    const server = createServer(
      {
        requestTimeout: limits.requestTimeoutMs,
        headersTimeout: limits.headersTimeoutMs,
        // How often Node checks the two above: the limits then hold within a second.
        connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs, limits.requestTimeoutMs),
        keepAliveTimeout: limits.idleTimeoutMs,
      },
      handler,
    );
    server.timeout = limits.idleTimeoutMs;
    trackRequests(server);
    // Whatever makes Node close a connection (a refusal, the client's own Connection: close), it closes gently.
    server.on('connection', (socket: Socket) => lingerOnClose(socket));
    caps.watch(server);
    server.on('timeout', (socket: TrackedSocket) => onIdle(socket, log));
    server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => onClientError(err, socket, log));
    // "Expect: 100-continue" is answered only once the request is admitted (admission.ts), so a
    // refused upload is never sent at all.
    server.on('checkContinue', (req, res) => server.emit('request', req, res));
    return server;
  };
}

function trackRequests(server: Server): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as TrackedSocket;
    socket[TRACKED] = { req, res };
    res.once('finish', () => {
      if (socket[TRACKED]?.res === res) socket[TRACKED] = undefined;
      socket[LAST_REQUEST] = req;
      // Answered before its body was read (a refusal): Node reads the rest and throws it away.
      if (req.complete) socket[READ_AT_LAST_ANSWER] = socket.bytesRead;
      else
        req.once('end', () => {
          socket[READ_AT_LAST_ANSWER] = socket.bytesRead;
        });
    });
  });
}

/**
 * No byte for `idleTimeoutMs`. A request whose handler is at work is not idle (the sandbox is
 * the one being slow); one whose headers or body stopped coming gets 408 and the connection is
 * closed; an idle connection between requests is closed.
 */
function onIdle(socket: TrackedSocket, log: Log): void {
  const current = socket[TRACKED];
  if (current?.req.complete && !current.res.writableFinished) return;
  if (current && !current.req.complete && !current.res.headersSent) {
    const id = REQUEST_IDS.get(current.req) ?? newRequestId();
    sendRaw(
      current.res,
      id,
      408,
      'request_timeout',
      'The request body stopped arriving: nothing was received for too long, so the connection is closed. Send the whole body without pauses.',
    );
    log?.(`${current.req.method} ${current.req.url} 408 request_timeout ${id}`);
    return;
  }
  if (!current && socket[LAST_REQUEST] && !socket[LAST_REQUEST].complete) {
    // Answered already; the rest of its body stopped coming.
    socket.destroy();
    return;
  }
  if (!current && socket.bytesRead > (socket[READ_AT_LAST_ANSWER] ?? 0)) {
    answerAndClose(
      socket,
      log,
      408,
      'request_timeout',
      'The request headers stopped arriving: nothing was received for too long, so the connection is closed.',
    );
    return;
  }
  socket.destroy();
}

/** Node's own refusals (headers too slow or too large, malformed HTTP), in the sandbox's envelope. */
function onClientError(err: NodeJS.ErrnoException, socket: Socket, log: Log): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [
          408,
          'request_timeout',
          'The request did not arrive in time, so the connection is closed. Send the headers and the whole body without pauses.',
        ]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'headers_too_large', 'The request headers are larger than the 16 KB limit.']
        : [400, 'bad_http', 'The request is not valid HTTP/1.1.'];
  answerAndClose(socket, log, status, code, message);
}

/** An answer written straight on a connection no request owns, then a gentle close; logged, with no method or path to name. */
function answerAndClose(socket: Socket, log: Log, status: number, code: string, message: string): void {
  if (socket.writable) {
    const id = newRequestId();
    const body = envelope(status, code, message, id);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
    );
    log?.(`(not a request) ${status} ${code} ${id}`);
  }
  lingerThenClose(socket);
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function envelope(status: number, code: string, message: string, id: string): string {
  return JSON.stringify({ error: { code, message, status }, request_id: id });
}

function sendRaw(res: ServerResponse, id: string, status: number, code: string, message: string): void {
  const body = envelope(status, code, message, id);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': id,
    connection: 'close',
  });
  res.end(body);
}

/**
 * Before a refusal is sent for a request whose body was not read: a body of at most
 * DRAIN_LIMIT declared bytes is read and thrown away after the answer (Node does so) and the
 * connection stays usable; a larger or undeclared one gets `Connection: close`, and the
 * connection closes gently (lingerOnClose, set on every connection). Returns the Connection
 * header to send, if any.
 */
export function connectionAfterRefusal(req: IncomingMessage): 'close' | undefined {
  if (req.complete) return undefined;
  const declared = Number(req.headers['content-length']);
  if (Number.isSafeInteger(declared) && declared >= 0 && declared <= DRAIN_LIMIT && req.headers['transfer-encoding'] === undefined)
    return undefined;
  return 'close';
}

/**
 * When Node closes this connection after the answer, it only ends its own side (FIN) and
 * goes on reading and discarding for LINGER_MS: closing at once, with the client's bytes
 * unread, makes the kernel send a reset that can destroy the answer before the client reads it.
 * Node closes a `Connection: close` socket through `destroySoon()`, which this replaces.
 */
function lingerOnClose(socket: Socket): void {
  const tracked = socket as TrackedSocket & { destroySoon?: () => void };
  if (tracked[LINGERING]) return;
  tracked[LINGERING] = true;
  tracked.destroySoon = () => lingerThenClose(socket);
}

function lingerThenClose(socket: Socket): void {
  if (socket.destroyed) return;
  socket.end();
  // Not unref'd: a paused socket does not keep the process alive, and a close must not wait for ever.
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  // Nobody else reads a socket Node has given up: read and discard what the client is still
  // sending, so it can finish and read the answer, up to LINGER_BYTES; then stop reading.
  const start = socket.bytesRead;
  const meter = setInterval(() => {
    if (socket.bytesRead - start > LINGER_BYTES) {
      socket.pause();
      clearInterval(meter);
    }
  }, 5);
  meter.unref();
  socket.once('close', () => {
    clearTimeout(timer);
    clearInterval(meter);
  });
  socket.resume();
}
