// Verifies a batch callback's signature by the Standard Webhooks scheme (standardwebhooks.com,
// the one the sandbox signs with): HMAC-SHA256, keyed by the base64 secret after "whsec_", of
// "<webhook-id>.<webhook-timestamp>.<body>"; the webhook-signature header lists "v1,<base64>"
// signatures separated by spaces; timestamps more than 5 minutes off are refused. Built on
// node:crypto so that the client installs no package for it; test/unit/webhook-signature.test.ts
// checks it against the scheme's own library.
import { createHmac, timingSafeEqual } from 'node:crypto';

const TOLERANCE_SECONDS = 5 * 60;
const PREFIX = 'whsec_';

export class WebhookVerificationError extends Error {}

/** The signature verified, but the body is not the JSON event it should be: a sender's fault, not a forgery. */
export class WebhookPayloadError extends Error {}

/** The key of a secret ("whsec_<base64>"); throws when there is none. */
export function webhookKey(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new WebhookVerificationError('the secret is empty or not base64');
  return key;
}

/**
 * Checks a callback's signature over its body's bytes as received (nothing decoded first, so any
 * body can be checked); throws WebhookVerificationError naming what failed.
 */
export function verifyWebhook(key: Buffer, body: Buffer, headers: Record<string, string | undefined>, now = Date.now()): void {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  const seconds = Number.parseInt(timestamp, 10);
  if (Number.isNaN(seconds)) throw new WebhookVerificationError(`webhook-timestamp is not a number of seconds: "${timestamp}"`);
  const age = Math.floor(now / 1000) - seconds;
  if (age > TOLERANCE_SECONDS) throw new WebhookVerificationError(`the timestamp is ${age} s old (more than ${TOLERANCE_SECONDS} s)`);
  if (-age > TOLERANCE_SECONDS)
    throw new WebhookVerificationError(`the timestamp is ${-age} s in the future (more than ${TOLERANCE_SECONDS} s)`);
  const expected = createHmac('sha256', key).update(`${id}.${seconds}.`).update(body).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no v1 signature matches');
}

/**
 * The event of a body whose signature verified: its JSON, or undefined for an empty body; throws
 * WebhookPayloadError when it is not UTF-8 JSON.
 */
export function webhookEvent(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (error) {
    throw new WebhookPayloadError(`its body is not JSON (${(error as Error).message})`);
  }
}
