// One request and its whole answer, read through undici's dispatch API (its documented handler:
// onRequestStart ... onResponseEnd). Unlike request(), an error that comes after the answer (the
// upload it interrupted breaking off) cannot destroy a body not yet read: once a response is
// complete it is the outcome, and an error response (401, 403, 413 ...) that was cut short still
// counts, as the server's answer, over the broken connection.
import { channel } from 'node:diagnostics_channel';
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

/** What an exchange in flight knows of its request: whether undici wrote the whole body. */
interface Sending {
  bodySent: boolean;
}

// undici says when a request's body is fully written only on its diagnostics channels (documented
// at https://github.com/nodejs/undici/blob/main/docs/docs/api/DiagnosticsChannel.md). A request is created synchronously inside
// dispatch(), so the request created while `creating` is set is ours.
let creating: Sending | undefined;
const ours = new WeakMap<object, Sending>();
channel('undici:request:create').subscribe((message) => {
  if (!creating) return;
  ours.set((message as { request: object }).request, creating);
  creating = undefined;
});
channel('undici:request:bodySent').subscribe((message) => {
  const sending = ours.get((message as { request: object }).request);
  if (sending) sending.bodySent = true;
});

export function exchange(
  dispatcher: Dispatcher,
  options: UndiciDispatcher.DispatchOptions,
  limit: number,
  signal?: AbortSignal,
): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const sending: Sending = { bodySent: false };
    let controller: UndiciDispatcher.DispatchController | undefined;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = () => controller?.abort(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal?.aborted) {
      reject(signal.reason ?? new Error('aborted'));
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    const text = () => Buffer.concat(chunks).toString('utf8');
    const handler: UndiciDispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        if (signal?.aborted) onAbort();
      },
      onResponseStart(_controller, status, responseHeaders) {
        if (status < 200) return; // 100 Continue and the like: the answer is still to come
        statusCode = status;
        headers = { ...responseHeaders };
      },
      onResponseData(_controller, chunk) {
        size += chunk.length;
        if (size > limit) {
          controller?.abort(
            new KctError(
              'response_too_large',
              `the answer from ${options.origin}${options.path} is larger than ${limit / 1024 / 1024} MB; refusing to read it`,
            ),
          );
          return;
        }
        chunks.push(Buffer.from(chunk));
      },
      onResponseEnd() {
        finish(() => resolve({ statusCode, headers, text: text() }));
      },
      onResponseError(_controller, error) {
        // the server's refusal arrived, then the connection broke: the refusal is the answer
        if (statusCode >= 400 && !(error instanceof KctError) && !signal?.aborted) {
          finish(() => resolve({ statusCode, headers, text: text(), truncated: error }));
          return;
        }
        if (!sending.bodySent && typeof error === 'object' && error !== null) cutShort.add(error);
        finish(() => reject(error));
      },
    };
    creating = sending;
    try {
      dispatcher.dispatch(options, handler);
    } catch (error) {
      finish(() => reject(error));
    } finally {
      creating = undefined; // a dispatcher that makes no undici request (a mock) leaves nothing for the next
    }
  });
}
