// Failures below HTTP: which are worth another attempt, and the ConnectionError that says
// whether the request can have reached the server.
import { CONNECTION_ADVICE, ConnectionError, SILENT_SERVER } from '../api/errors.js';
import { cutShort } from './exchange.js';

/** Connection-level failures worth another attempt. */
export const TRANSIENT_NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
]);
/** TLS and proxy failures: reported as connection problems, not retried (they will not heal). */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_PROXY)/;

export function isNetworkError(code: string | undefined): boolean {
  if (code === undefined) return false;
  if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED' || code === 'UND_ERR_ABORTED') return false;
  return TRANSIENT_NETWORK.has(code) || code.startsWith('UND_ERR_') || TLS_CODE.test(code);
}

const NOT_DELIVERED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Network errors in words; undici's own codes name nothing a user knows. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  UND_ERR_HEADERS_TIMEOUT: SILENT_SERVER.noAnswer,
  UND_ERR_BODY_TIMEOUT: SILENT_SERVER.answerStopped,
  UND_ERR_CONNECT_TIMEOUT: 'no connection in 10 s',
};

export function toConnectionError(
  error: unknown,
  spec: { method: string; path: string; idempotencyKey?: string },
  baseUrl: string,
  earlierMaybeDelivered = false,
): ConnectionError {
  const code = errorCode(error);
  // the connection broke before the whole request was written: the server never saw its end, so
  // it cannot have accepted it (exchange.ts); but an earlier attempt of the same request may have
  // a read (GET, HEAD) is never accepted nor charged: whether it reached the server does not matter
  const read = spec.method === 'GET' || spec.method === 'HEAD';
  const delivered = !read && (earlierMaybeDelivered || (!NOT_DELIVERED.has(code ?? '') && !cutShort.has(error as object)));
  const what = code ? `${code}` : error instanceof Error ? error.message : String(error);
  const reason = (code !== undefined && REASONS[code]) || what;
  const plain = plainHttpAdvice(code, baseUrl);
  return new ConnectionError(`cannot reach ${baseUrl} (${reason}) during ${spec.method} ${spec.path}`, delivered, {
    cause: error,
    // "try again" is safe only where the request cannot have been taken, or carries its key
    suggestion: delivered ? maybeAcceptedAdvice(spec.idempotencyKey !== undefined) : (plain ?? CONNECTION_ADVICE),
  });
}

/**
 * For an https:// base URL whose server answered the TLS greeting in plain HTTP (OpenSSL's "wrong
 * version number", or a record too long for TLS), the advice to use its http:// URL instead.
 */
function plainHttpAdvice(code: string | undefined, baseUrl: string): string | undefined {
  if (!/^https:/i.test(baseUrl) || (code !== 'ERR_SSL_WRONG_VERSION_NUMBER' && code !== 'ERR_SSL_PACKET_LENGTH_TOO_LONG')) return undefined;
  return `The server answers in plain HTTP, not TLS: try the base URL ${baseUrl.replace(/^https:/i, 'http:')} (the baseUrl option).`;
}

/** What to do about a request that may have been accepted (and charged) though no answer came: `stopped`, when the caller stopped it. */
export function maybeAcceptedAdvice(keyed: boolean, stopped = false): string {
  const may = `It may have been accepted (and charged)${stopped ? ' before it was stopped' : ''}`;
  return keyed
    ? `${may}: send it again with the same idempotency key, which gets that task back with no second charge.`
    : `${may}: check before sending it again (a request with an idempotency key can be sent again safely).`;
}

export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
