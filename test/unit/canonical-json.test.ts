// canonicalJson (api/canonical.ts) is what derived idempotency keys and the sandbox's request
// fingerprints hash: its text must never change, or a run after an upgrade would not find the
// tasks an earlier run created. Held to its text for one value, and to a key and an identity
// derived before (the rule of 0.2: a key of the identity and the labels; see the CHANGELOG).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/api/canonical.js';
import { batchKeyFromIdentities, deriveIdempotencyKey } from '../../src/client/idempotency.js';
import { identityOf } from '../../src/client/identity.js';

describe('canonicalJson', () => {
  it('orders keys by UTF-16 code unit and leaves out undefined members', () => {
    expect(canonicalJson({ b: 1, a: [3, undefined, { d: 'é', c: true }], é: 0, A: null, u: undefined })).toBe(
      '{"A":null,"a":[3,null,{"c":true,"d":"é"}],"b":1,"é":0}',
    );
  });

  it('is the text of the rule as first written (entries filtered, sorted and joined), for any JSON value with undefined members', () => {
    const rule = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map(rule).join(',')}]`;
      if (value !== null && typeof value === 'object') {
        const entries = Object.entries(value as Record<string, unknown>)
          .filter(([, v]) => v !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${rule(v)}`).join(',')}}`;
      }
      return JSON.stringify(value ?? null);
    };
    const values = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(undefined),
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true }),
        fc.string({ unit: 'binary' }),
        fc.array(tie('value'), { maxLength: 4 }),
        // past 16 keys they are sorted another way (canonical.ts): both are generated
        fc.dictionary(fc.string({ unit: 'binary', maxLength: 4 }), tie('value'), { maxKeys: 24 }),
      ),
    })).value;
    fc.assert(
      fc.property(values, (value) => canonicalJson(value) === rule(value)),
      { seed: 20261129, numRuns: 500 },
    );
  });

  it('derives the key and the identity it derived before', async () => {
    const data = new TextEncoder().encode('An essay.\n\n');
    const fields = {
      model_id: 12,
      student_id: 'essay',
      rubric_text: 'Ideas 5',
      total_score: 10,
      paper_content: undefined,
      z: [1, { b: 2, a: null }],
    };
    const files = [
      { field: 'answer_files', file: { path: '/nowhere/essay.txt', name: 'essay.txt', type: 'text/plain', size: data.length, data } },
    ];
    expect(await deriveIdempotencyKey('one-pass', fields, files)).toBe('kct-0d6e1fb0a3504b81b1ceab7471f03af16ffbf276');
    const hash = async (file: { data?: Uint8Array }) => createHash('sha256').update(file.data!).digest('hex');
    expect(await identityOf(fields, files, hash)).toBe('98361a713ffa9c20a746054d6ea236fa');
  });

  it("derives a batch's key as before, and the same from its items' identities (kct batch computes them once)", async () => {
    const body = {
      evaluations: [
        { model_id: 12, student_id: 'ann', paper_content: 'An essay.' },
        { model_id: 12, paper_content: 'Another essay.', rubric_text: 'Ideas 5' },
      ],
      callback_url: 'https://example.org/hook',
    };
    const key = 'kct-ea4c2db48c2fb59a90b36e1aef7ce9640b83d185';
    expect(await deriveIdempotencyKey('batch', body)).toBe(key);
    const identities = await Promise.all(body.evaluations.map((item) => identityOf(item, [], async () => '')));
    expect(batchKeyFromIdentities(body, identities)).toBe(key);
  });
});
