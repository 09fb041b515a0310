// A server may answer before it has read the whole upload (401 for a wrong key, 403, 413) and
// close the connection: the rest of the upload then fails with EPIPE or ECONNRESET. Node marks
// the socket errored on that write and drops whatever arrives after it, so the answer the server
// already sent is lost and a wrong key looks like a network failure. This connector holds such
// a write error back until the read side has had its say: a response that arrived wins (undici
// completes it), and only when none does is the held error raised.
//
// The upstream behaviour worked around: a net.Socket destroys itself on a failed write and stops
// reading (nodejs/help#2034 describes it; RFC 9110 15.5.14 lets a server close after a 413), and
// neither Node nor undici has an option to keep reading after the write side broke. This is the
// one place kct reaches into a socket (its _write/_writev); test/unit/public-apis-only.test.ts
// keeps it the only one. Drop it when undici reads early responses itself.
import type { Socket } from 'node:net';
import type { buildConnector as BuildConnector } from 'undici';
import { buildConnector } from './undici.js';

/** Write errors that mean "the server closed the connection on us". */
const RESET = new Set(['EPIPE', 'ECONNRESET', 'ECONNABORTED']);

/** How long a held write error waits for the read side before it ends the connection. */
const HOLD_MS = 5_000;

export function holdingConnector(options: BuildConnector.BuildOptions): BuildConnector.connector {
  const connect = buildConnector(options);
  return (connectOptions, callback) =>
    connect(connectOptions, (error, socket) => {
      if (error || !socket) {
        callback(error ?? new Error('no socket'), null);
        return;
      }
      holdWriteErrors(socket as Socket);
      callback(null, socket);
    });
}

/** Makes a reset on write wait for the response instead of destroying the socket at once. */
function holdWriteErrors(socket: Socket): void {
  let held: NodeJS.ErrnoException | undefined;
  const settle = () => {
    if (!socket.destroyed) socket.destroy(held);
  };
  const hold = (callback: (error?: Error | null) => void) => (error?: Error | null) => {
    const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
    if (!error || !RESET.has(code ?? '')) {
      callback(error);
      return;
    }
    if (held) return;
    held = error as NodeJS.ErrnoException;
    // The write stays pending: the upload never counts as sent (so a failure is never taken for a
    // request the server may have accepted), while the read side takes in the server's answer,
    // if any, until it ends (EOF, or its own reset); then, or after HOLD_MS, the held error ends
    // the connection, unless the answer already completed the request.
    const timer = setTimeout(settle, HOLD_MS);
    timer.unref();
    socket.once('end', () => setImmediate(settle));
    socket.once('close', () => clearTimeout(timer));
  };
  type WriteFn = (chunk: unknown, encoding: BufferEncoding, callback: (error?: Error | null) => void) => void;
  type WritevFn = (chunks: { chunk: unknown; encoding: BufferEncoding }[], callback: (error?: Error | null) => void) => void;
  const internals = socket as unknown as { _write: WriteFn; _writev?: WritevFn };
  const write = internals._write.bind(socket);
  internals._write = (chunk, encoding, callback) => write(chunk, encoding, hold(callback));
  if (internals._writev) {
    const writev = internals._writev.bind(socket);
    internals._writev = (chunks, callback) => writev(chunks, hold(callback));
  }
}
