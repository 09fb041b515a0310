import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskKey, redact, redactHeaders } from '../../src/client/redact.js';
import { propertyRuns, propertySeed } from './property-runs.js';

const KEY = 'kct_live_9f8e7d6c5b4a3210ZYXW';

describe('maskKey', () => {
  it('shows the prefix and the last four characters only', () => {
    expect(maskKey(KEY)).toBe('kct_****ZYXW');
  });

  it('never reveals more than the prefix and last four of any key', () => {
    for (const key of [KEY, 'kct_abcdefghijklmnop', 'kct_1234567890123', `kct_${'x'.repeat(200)}TAIL`]) {
      const masked = maskKey(key);
      const visible = masked.replace('****', '');
      expect(visible.length).toBeLessThanOrEqual(8);
      expect(masked.startsWith(key.slice(0, 4))).toBe(true);
      expect(key.endsWith(masked.slice(-4))).toBe(true);
      expect(masked).not.toContain(key.slice(4, -4));
    }
  });

  it('shows no tail of a short key', () => {
    expect(maskKey('kct_abcd')).toBe('kct_****');
    expect(maskKey('kct_abcdefgh')).toBe('kct_****');
    expect(maskKey('abc')).toBe('abc****');
    expect(maskKey('')).toBe('****');
  });
});

describe('redact', () => {
  it('removes each given secret, everywhere it occurs', () => {
    expect(redact('a=s3cretvalue b=s3cretvalue', ['s3cretvalue'])).toBe('a=[redacted] b=[redacted]');
  });

  it('removes several secrets and skips undefined and very short ones', () => {
    expect(redact('one-secret two-secret', ['one-secret', undefined, 'two-secret'])).toBe('[redacted] [redacted]');
    expect(redact('abc', ['abc'])).toBe('abc');
    expect(redact('text', ['', undefined])).toBe('text');
  });

  it('removes anything shaped like a kct key, even when not given', () => {
    expect(redact(`key ${KEY} used`)).toBe('key [redacted] used');
    expect(redact('x-api-key: kct_other-Key_123456, and kct_second_999999')).toBe('x-api-key: [redacted], and [redacted]');
    expect(redact('{"key":"kct_abcdef"}')).toBe('{"key":"[redacted]"}');
  });

  it('leaves the kct_ prefix alone when nothing key-like follows; kct_ and any key characters are a key, however short', () => {
    expect(redact('see kct_ docs and kct_abc')).toBe('see kct_ docs and [redacted]');
    expect(redact('a masked key kct_****abcd stays as it is')).toBe('a masked key kct_****abcd stays as it is');
  });

  it('redacts the whole given key, not just its key-shaped part', () => {
    const odd = 'kct_abc.def+ghi/jkl';
    const out = redact(`key=${odd}`, [odd]);
    expect(out).toBe('key=[redacted]');
  });

  it('property: a key echoed whole, or only its secret part after a prefix, never survives', () => {
    const secretPart = fc.stringMatching(/^[A-Za-z0-9]{12,40}$/);
    fc.assert(
      fc.property(
        fc.constantFrom('kct_', 'kct_sbx_', 'kct_live_', 'sk_'),
        secretPart,
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        (prefix, part, before, after) => {
          const key = `${prefix}${part}`;
          for (const echoed of [key, part, `${key} (${part})`]) {
            const out = redact(`${before}${echoed}${after}`, [key]);
            expect(out).not.toContain(part);
          }
        },
      ),
      { numRuns: propertyRuns(300), seed: propertySeed(34) },
    );
  });

  it('is stable when run twice', () => {
    const once = redact(`k=${KEY}`, [KEY]);
    expect(redact(once, [KEY])).toBe(once);
  });
});

describe('redactHeaders', () => {
  it('hides x-api-key, x-token-key, authorization, cookies in any case', () => {
    const out = redactHeaders({
      'X-API-Key': 'anything-at-all',
      'x-token-key': 'legacy-token',
      Authorization: 'Bearer abc.def',
      'proxy-authorization': 'Basic Zm9v',
      cookie: 'session=1',
      'set-cookie': ['a=1', 'b=2'],
      'content-type': 'application/json',
    });
    expect(out).toEqual({
      'X-API-Key': '[redacted]',
      'x-token-key': '[redacted]',
      Authorization: '[redacted]',
      'proxy-authorization': '[redacted]',
      cookie: '[redacted]',
      'set-cookie': '[redacted]',
      'content-type': 'application/json',
    });
  });

  it('redacts secrets inside other headers, joins arrays and drops undefined', () => {
    const out = redactHeaders(
      { 'x-echo': `got ${KEY}`, 'x-other': 'my-private-token', vary: ['accept', 'origin'], 'x-none': undefined, 'content-length': 12 },
      ['my-private-token'],
    );
    expect(out).toEqual({ 'x-echo': 'got [redacted]', 'x-other': '[redacted]', vary: 'accept, origin', 'content-length': '12' });
  });
});
