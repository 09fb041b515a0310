// A JSON request body read from its bytes (http/json-body.ts: inline for a small body, on a
// request thread for a big one): fastify's answers for empty, invalid and poisoned bodies, and a
// fingerprint equal to the one of the validated fields, which the routes used to compute.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJsonBody } from '../../packages/sandbox/src/http/json-body.js';
import { fingerprint } from '../../packages/sandbox/src/tasks/fingerprint.js';
import { BatchRequest, OnePassFields } from '../../src/api/schemas.js';
import { propertyRuns, propertySeed } from './property-runs.js';

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

describe('readJsonBody', () => {
  it.each([
    ['', { kind: 'empty' }],
    [' \r\n\t ', { kind: 'empty' }],
    ['{"model_id": 12,', { kind: 'invalid' }],
    ['{"__proto__": {"admin": true}}', { kind: 'invalid' }],
    ['{"a": {"constructor": {"prototype": {"admin": true}}}}', { kind: 'invalid' }],
    ['[1, 2]', { kind: 'parsed', value: [1, 2] }],
    ['"text"', { kind: 'parsed', value: 'text' }],
  ])('%j: %j', (text, expected) => {
    expect(readJsonBody(bytes(text), true)).toEqual(expected);
  });

  it('an object: its value, and its fingerprint only when asked', () => {
    const body = { model_id: 12, paper_content: 'An essay.' };
    expect(readJsonBody(bytes(JSON.stringify(body)), false)).toEqual({ kind: 'parsed', value: body });
    expect(readJsonBody(bytes(JSON.stringify(body)), true)).toEqual({ kind: 'parsed', value: body, fingerprint: fingerprint(body, []) });
  });

  it('bytes that are a view into a larger buffer (as a thread receives them) are read as the view', () => {
    const whole = Buffer.from('xx{"model_id": 7}yy');
    expect(readJsonBody(new Uint8Array(whole.buffer, whole.byteOffset + 2, whole.length - 4), false)).toEqual({
      kind: 'parsed',
      value: { model_id: 7 },
    });
  });

  it('property: the fingerprint of the raw body equals the one of its fields as the schema validated them', () => {
    const text = fc.string({ minLength: 1, maxLength: 40, unit: 'binary' });
    const rubric = fc.record(
      {
        item: text,
        max_score: fc.nat(100),
        description: fc.string({ maxLength: 40 }),
        levels: fc.array(fc.record({ score: fc.integer({ min: -5, max: 20 }), descriptor: fc.string({ maxLength: 20 }) }), {
          maxLength: 3,
        }),
      },
      { requiredKeys: ['item'] },
    );
    const item = fc.record(
      {
        model_id: fc.integer({ min: 1, max: 1e9 }),
        paper_content: text,
        rubrics: fc.array(rubric, { maxLength: 3 }),
        rubric_text: text,
        cum_method: fc.constantFrom('sum', 'average'),
        total_score: fc.double({ min: 0.5, max: 1000, noNaN: true }),
        style: fc.constantFrom('Bullet', 'Short', 'Long'),
        student_id: fc.string({ minLength: 1, maxLength: 200 }),
        current_feedbacks: fc.array(fc.record({ item: text, comment: fc.string({ maxLength: 30 }), score: fc.integer() }), {
          maxLength: 2,
        }),
      },
      { requiredKeys: ['model_id'] },
    );
    fc.assert(
      fc.property(item, fc.array(item, { minLength: 1, maxLength: 5 }), (one, items) => {
        for (const [body, schema] of [
          [one, OnePassFields],
          [{ evaluations: items }, BatchRequest],
        ] as const) {
          const read = readJsonBody(bytes(JSON.stringify(body)), true);
          expect(read.kind).toBe('parsed');
          const fields = schema.parse((read as { value: unknown }).value);
          expect((read as { fingerprint?: string }).fingerprint).toBe(fingerprint(fields, []));
        }
      }),
      { numRuns: propertyRuns(50), seed: propertySeed(34) },
    );
  });
});
