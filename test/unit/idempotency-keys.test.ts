// The key rules one-pass and batch share (src/client/idempotency.ts): a base key joined to an
// answer's identity, never its position; unusable base keys refused.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { batchIdentity, checkBaseKey, keyForIdentity, submissionKey } from '../../src/client/idempotency.js';

describe('checkBaseKey', () => {
  it.each([
    ['', /is empty/],
    ['   ', /is empty/],
    ['\t', /is empty/],
    ['class 9', /a space at position 6/],
    ['clé', /"é" at position 3/],
    ['k\n', /white space at position 2/],
    ['x'.repeat(201), /201 characters long; the limit is 200/],
  ])('refuses %j', (key, message) => {
    expect(() => checkBaseKey(key)).toThrow(UsageError);
    expect(() => checkBaseKey(key)).toThrow(message);
  });

  it('takes visible ASCII', () => {
    expect(checkBaseKey('class9-essay_2026:term/1')).toBe('class9-essay_2026:term/1');
  });
});

describe('keyForIdentity', () => {
  it('joins the base key and the identity, percent-encoding what is not a plain path character', () => {
    expect(keyForIdentity('class9', 'a1.txt')).toBe('class9-a1.txt');
    expect(keyForIdentity('class9', 'late/a3.txt')).toBe('class9-late/a3.txt');
    expect(keyForIdentity('k', 'Jane Doe_1234/essay (final).pdf')).toBe('k-Jane%20Doe_1234/essay%20%28final%29.pdf');
    expect(keyForIdentity('k', 'José.txt')).toBe('k-Jos%C3%A9.txt');
  });

  it('never gives two identities one key, and depends on nothing else', () => {
    const identities = ['a b', 'a%20b', 'a/b', 'a%2Fb', 'a_b', 'a-b'];
    expect(new Set(identities.map((id) => keyForIdentity('k', id))).size).toBe(identities.length);
    expect(keyForIdentity('k', 'a2.txt')).toBe(keyForIdentity('k', 'a2.txt'));
  });

  it('keeps the key within 255 visible ASCII characters', () => {
    const key = keyForIdentity('base', `${'é'.repeat(200)}.txt`);
    expect(key).toMatch(/^base-sha256-[0-9a-f]{32}$/);
    expect(keyForIdentity('base', 'x'.repeat(300))).toMatch(/^base-sha256-/);
  });
});

describe('submissionKey', () => {
  it('derives from the content when asked, and from the identity under a base key', async () => {
    const fields = { model_id: 12, paper_content: 'An answer.' };
    const derived = await submissionKey({ kind: 'derived' }, { endpoint: 'one-pass', fields, identity: 'a.txt' });
    expect(derived).toMatch(/^kct-[0-9a-f]{40}$/);
    expect(await submissionKey({ kind: 'derived' }, { endpoint: 'one-pass', fields, identity: 'b.txt' })).toBe(derived);
    expect(await submissionKey({ kind: 'base', base: 'k' }, { endpoint: 'one-pass', fields, identity: 'a.txt' })).toBe('k-a.txt');
    expect(
      await submissionKey(
        { kind: 'base', base: 'k' },
        { endpoint: 'one-pass', fields: { ...fields, paper_content: 'changed' }, identity: 'a.txt' },
      ),
    ).toBe('k-a.txt');
  });

  it("a batch's identity is its items' identities, in order", () => {
    expect(batchIdentity(['a.txt', 'b.txt'])).toBe(batchIdentity(['a.txt', 'b.txt']));
    expect(batchIdentity(['a.txt', 'b.txt'])).not.toBe(batchIdentity(['b.txt', 'a.txt']));
    expect(batchIdentity(['a.txt'])).toMatch(/^batch-[0-9a-f]{32}$/);
  });
});
