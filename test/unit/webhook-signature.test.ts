// kct's own Standard Webhooks verifier (node:crypto) against the scheme's library, which the
// sandbox signs callbacks with: whatever the library signs verifies, anything tampered does not;
// a body signed correctly that is not JSON verifies, and is then a payload error, never a forgery.
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  verifyWebhook,
  WebhookPayloadError,
  WebhookVerificationError,
  webhookEvent,
  webhookKey,
} from '../../src/commands/callbacks/webhook-signature.js';
import { propertyRuns, propertySeed } from './property-runs.js';

const secret = `whsec_${Buffer.from('a secret of the sandbox, 32 bytes').toString('base64')}`;
const signer = new Webhook(secret);

function signed(id: string, seconds: number, body: string): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': signer.sign(id, new Date(seconds * 1000), body) };
}

describe('verifying a callback signature (Standard Webhooks)', () => {
  it("accepts what the scheme's library signs, and refuses any change to the body, id, timestamp or signature", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.json(),
        fc.integer({ min: -299, max: 299 }),
        fc.nat(3),
        (id, body, skew, tamper) => {
          const now = 1_790_000_000_000;
          const seconds = Math.floor(now / 1000) + skew;
          const headers = signed(id, seconds, body);
          const bytes = Buffer.from(body);
          expect(() => verifyWebhook(webhookKey(secret), bytes, headers, now)).not.toThrow();
          expect(webhookEvent(bytes)).toEqual(JSON.parse(body));
          const changed = [
            () => verifyWebhook(webhookKey(secret), Buffer.from(`${body} `), headers, now),
            () => verifyWebhook(webhookKey(secret), bytes, { ...headers, 'webhook-id': `${id}x` }, now),
            () => verifyWebhook(webhookKey(secret), bytes, { ...headers, 'webhook-timestamp': String(seconds + 1) }, now),
            () => verifyWebhook(webhookKey(`whsec_${Buffer.from('another secret').toString('base64')}`), bytes, headers, now),
          ][tamper];
          expect(changed).toThrow(WebhookVerificationError);
        },
      ),
      { numRuns: propertyRuns(200), seed: propertySeed(2122) },
    );
  });

  it('takes any v1 signature of a list, and says why it refuses', () => {
    const now = Date.now();
    const seconds = Math.floor(now / 1000);
    const body = Buffer.from('{"a":1}');
    const headers = signed('msg_1', seconds, '{"a":1}');
    expect(() =>
      verifyWebhook(webhookKey(secret), body, { ...headers, 'webhook-signature': `v1,bm90IGl0 ${headers['webhook-signature']}` }, now),
    ).not.toThrow();
    expect(() => verifyWebhook(webhookKey(secret), body, signed('msg_1', seconds - 301, '{"a":1}'), now)).toThrow(/301 s old/);
    expect(() => verifyWebhook(webhookKey(secret), body, signed('msg_1', seconds + 301, '{"a":1}'), now)).toThrow(/in the future/);
    expect(() => verifyWebhook(webhookKey(secret), body, { 'webhook-id': 'msg_1' }, now)).toThrow(/missing/);
    expect(() => webhookKey('whsec_')).toThrow(/empty/);
  });

  it('verifies a signed body that is not JSON, and says it is not JSON (no forgery)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 60 }).filter((text) => {
          try {
            JSON.parse(text);
            return false;
          } catch {
            return true;
          }
        }),
        (text) => {
          const now = 1_790_000_000_000;
          const body = Buffer.from(text);
          expect(() => verifyWebhook(webhookKey(secret), body, signed('msg_1', now / 1000, text), now)).not.toThrow();
          expect(() => webhookEvent(body)).toThrow(WebhookPayloadError);
        },
      ),
      { numRuns: propertyRuns(200), seed: propertySeed(2123) },
    );
    // bytes that are not UTF-8 are no JSON either, even where a decoder would mend them
    expect(() => webhookEvent(Buffer.from([0x22, 0xff, 0x22]))).toThrow(WebhookPayloadError);
    expect(webhookEvent(Buffer.alloc(0))).toBeUndefined();
  });
});
