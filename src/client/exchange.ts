// One request and its whole answer, read through undici's dispatch API. Unlike request(), an
// error that comes after the answer (the upload it interrupted breaking off) cannot destroy a body
// not yet read: once a response is complete it is the outcome, and an error response (401, 403,
// 413 ...) that was cut short still counts, as the server's answer, over the broken connection.
import type { Dispatcher as UndiciDispatcher } from 'undici';
import { KctError } from '../api/errors.js';
import type { Dispatcher } from './undici.js';

export interface Exchanged {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The connection broke before the whole body arrived (only for error statuses, which still count). */
  truncated?: unknown;
}

/**
 * Errors of requests whose body had not all been handed to the connection when they failed: the
 * server cannot have accepted such a request (it never saw its end), so it was not delivered.
 */
export const cutShort = new WeakSet<object>();

export function exchange(dispatcher: Dispatcher, options: UndiciDispatcher.DispatchOptions, limit: number, signal?: AbortSignal): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    let requestSent = false;
    let abort: ((reason?: Error) => void) | undefined;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = () => abort?.(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal?.aborted) {
      reject(signal.reason ?? new Error('aborted'));
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    const text = () => Buffer.concat(chunks).toString('utf8');
    // the legacy handler API (undici's own request() uses it), with onRequestSent, which the
    // typings no longer list but undici still calls once the whole body is written
    const handler = {
      onRequestSent() {
        requestSent = true;
      },
      onConnect(abortRequest) {
        abort = abortRequest;
        if (signal?.aborted) onAbort();
      },
      onHeaders(status, rawHeaders) {
        if (status < 200) return true; // 100 Continue and the like: the answer is still to come
        statusCode = status;
        headers = parseHeaders(rawHeaders as unknown as Buffer[]);
        return true;
      },
      onData(chunk) {
        size += chunk.length;
        if (size > limit) {
          abort?.(new KctError('response_too_large', `the answer from ${options.origin}${options.path} is larger than ${limit / 1024 / 1024} MB; refusing to read it`));
          return false;
        }
        chunks.push(Buffer.from(chunk));
        return true;
      },
      onComplete() {
        finish(() => resolve({ statusCode, headers, text: text() }));
      },
      onError(error) {
        // the server's refusal arrived, then the connection broke: the refusal is the answer
        if (statusCode >= 400 && !(error instanceof KctError) && !signal?.aborted) {
          finish(() => resolve({ statusCode, headers, text: text(), truncated: error }));
          return;
        }
        if (!requestSent && typeof error === 'object' && error !== null) cutShort.add(error);
        finish(() => reject(error));
      },
    } as UndiciDispatcher.DispatchHandler;
    try {
      dispatcher.dispatch(options, handler);
    } catch (error) {
      finish(() => reject(error));
    }
  });
}

/** undici's raw header list ([name, value, name, value, ...] as buffers) as an object, lower-case names. */
function parseHeaders(raw: Buffer[] | string[] | null | undefined): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = Object.create(null) as Record<string, string | string[] | undefined>;
  if (!raw) return out;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toString().toLowerCase();
    const value = raw[i + 1].toString('latin1' as BufferEncoding);
    const existing = out[name];
    if (existing === undefined) out[name] = value;
    else out[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}
