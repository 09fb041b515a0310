// The key rules one-pass and batch share (src/client/idempotency.ts): a base key joined to an
// answer's name, never its position; unusable base keys refused.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { checkBaseKey, idempotencyKeyFor, keyForName } from '../../src/client/idempotency.js';

describe('checkBaseKey', () => {
  it.each([
    ['', /is empty/],
    ['   ', /is empty/],
    ['\t', /is empty/],
    ['class 9', /a space at position 6/],
    ['clé', /"é" at position 3/],
    ['k\n', /white space at position 2/],
    // a character outside the Basic Multilingual Plane is one position, and named whole
    ['ab😀c d', /"😀" at position 3/],
    ['x'.repeat(201), /201 characters long; the limit is 200/],
  ])('refuses %j', (key, message) => {
    expect(() => checkBaseKey(key)).toThrow(UsageError);
    expect(() => checkBaseKey(key)).toThrow(message);
  });

  it('takes visible ASCII', () => {
    expect(checkBaseKey('class9-essay_2026:term/1')).toBe('class9-essay_2026:term/1');
  });
});

describe('keyForName', () => {
  it('joins the base key and the identity, percent-encoding what is not a plain path character', () => {
    expect(keyForName('class9', 'a1.txt')).toBe('class9-a1.txt');
    expect(keyForName('class9', 'late/a3.txt')).toBe('class9-late/a3.txt');
    expect(keyForName('k', 'Jane Doe_1234/essay (final).pdf')).toBe('k-Jane%20Doe_1234/essay%20%28final%29.pdf');
    expect(keyForName('k', 'José.txt')).toBe('k-Jos%C3%A9.txt');
  });

  it('never gives two identities one key, and depends on nothing else', () => {
    const identities = ['a b', 'a%20b', 'a/b', 'a%2Fb', 'a_b', 'a-b'];
    expect(new Set(identities.map((id) => keyForName('k', id))).size).toBe(identities.length);
    expect(keyForName('k', 'a2.txt')).toBe(keyForName('k', 'a2.txt'));
  });

  it('keeps the key within 255 visible ASCII characters', () => {
    const key = keyForName('base', `${'é'.repeat(200)}.txt`);
    expect(key).toMatch(/^base-sha256-[0-9a-f]{32}$/);
    expect(keyForName('base', 'x'.repeat(300))).toMatch(/^base-sha256-/);
  });
});

describe('idempotencyKeyFor', () => {
  it('derives from the content when asked, and from the name under a base key', async () => {
    const fields = { model_id: 12, paper_content: 'An answer.' };
    const derived = await idempotencyKeyFor('derive', { endpoint: 'one-pass', fields });
    expect(derived).toMatch(/^kct-[0-9a-f]{40}$/);
    expect(await idempotencyKeyFor('derive', { endpoint: 'one-pass', fields: { ...fields } })).toBe(derived);
    expect(await idempotencyKeyFor('derive', { endpoint: 'one-pass', fields: { ...fields, student_id: 's1' } })).not.toBe(derived);
    expect(await idempotencyKeyFor({ base: 'k', name: 'a.txt' }, { endpoint: 'one-pass', fields })).toBe('k-a.txt');
    expect(
      await idempotencyKeyFor({ base: 'k', name: 'a.txt' }, { endpoint: 'one-pass', fields: { ...fields, paper_content: 'changed' } }),
    ).toBe('k-a.txt');
  });

  it("a batch's name is its items' names, in order", async () => {
    const batch = { endpoint: 'batch' as const, fields: {} };
    const ab = await idempotencyKeyFor({ base: 'k', names: ['a.txt', 'b.txt'] }, batch);
    expect(await idempotencyKeyFor({ base: 'k', names: ['a.txt', 'b.txt'] }, batch)).toBe(ab);
    expect(await idempotencyKeyFor({ base: 'k', names: ['b.txt', 'a.txt'] }, batch)).not.toBe(ab);
    expect(ab).toMatch(/^k-batch-[0-9a-f]{32}$/);
  });
});
