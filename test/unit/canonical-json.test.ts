// canonicalJson (api/canonical.ts) is what derived idempotency keys and the sandbox's request
// fingerprints hash: its text must never change, or a run after an upgrade would not find the
// tasks an earlier run created. Held to its text for one value, and to a key derived before.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/api/canonical.js';
import { submissionKey } from '../../src/client/idempotency.js';

describe('canonicalJson', () => {
  it('orders keys by UTF-16 code unit and leaves out undefined members', () => {
    expect(canonicalJson({ b: 1, a: [3, undefined, { d: 'é', c: true }], é: 0, A: null, u: undefined })).toBe(
      '{"A":null,"a":[3,null,{"c":true,"d":"é"}],"b":1,"é":0}',
    );
  });

  it('derives the key it derived before', async () => {
    const data = new TextEncoder().encode('An essay.\n\n');
    const key = await submissionKey(
      { kind: 'derived' },
      {
        endpoint: 'one-pass',
        identity: 'essay.txt',
        fields: {
          model_id: 12,
          student_id: 'essay',
          rubric_text: 'Ideas 5',
          total_score: 10,
          paper_content: undefined,
          z: [1, { b: 2, a: null }],
        },
        files: [
          { field: 'answer_files', file: { path: '/nowhere/essay.txt', name: 'essay.txt', type: 'text/plain', size: data.length, data } },
        ],
      },
    );
    expect(key).toBe('kct-427c4a5922300f3716e1591e8a8bf786872a0765');
  });
});
