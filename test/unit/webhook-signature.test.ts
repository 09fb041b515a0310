// kct's own Standard Webhooks verifier (node:crypto) against the scheme's library, which the
// sandbox signs callbacks with: whatever the library signs verifies, anything tampered does not.
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError, webhookKey } from '../../src/commands/callbacks/webhook-signature.js';
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
          expect(verifyWebhook(webhookKey(secret), body, headers, now)).toEqual(JSON.parse(body));
          const changed = [
            () => verifyWebhook(webhookKey(secret), `${body} `, headers, now),
            () => verifyWebhook(webhookKey(secret), body, { ...headers, 'webhook-id': `${id}x` }, now),
            () => verifyWebhook(webhookKey(secret), body, { ...headers, 'webhook-timestamp': String(seconds + 1) }, now),
            () => verifyWebhook(webhookKey(`whsec_${Buffer.from('another secret').toString('base64')}`), body, headers, now),
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
    const headers = signed('msg_1', seconds, '{"a":1}');
    expect(
      verifyWebhook(webhookKey(secret), '{"a":1}', { ...headers, 'webhook-signature': `v1,bm90IGl0 ${headers['webhook-signature']}` }, now),
    ).toEqual({ a: 1 });
    expect(() => verifyWebhook(webhookKey(secret), '{"a":1}', signed('msg_1', seconds - 301, '{"a":1}'), now)).toThrow(/301 s old/);
    expect(() => verifyWebhook(webhookKey(secret), '{"a":1}', signed('msg_1', seconds + 301, '{"a":1}'), now)).toThrow(/in the future/);
    expect(() => verifyWebhook(webhookKey(secret), '{"a":1}', { 'webhook-id': 'msg_1' }, now)).toThrow(/missing/);
    expect(() => webhookKey('whsec_')).toThrow(/empty/);
  });
});
