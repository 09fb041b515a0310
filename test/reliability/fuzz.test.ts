// Fuzz: every route of the sandbox with generated bad input (fast-check, seeded: KCT_SEED
// replays a run). Whatever arrives, the answer is never a 5xx, never carries a stack trace or a
// library's internals, is the JSON envelope, and comes within the time limit; the sandbox stays
// up and leaves no received file behind.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OPERATIONS } from '../../src/api/operations.js';
import { PRODUCT_OPERATIONS } from '../../src/api/product.js';
import type { SandboxProcess } from './lib.js';
import { Client, ESSAY, FULL, INTERNALS, removeDir, SEED, secretsFound, startSandbox, Transcript } from './lib.js';

/** A hang: no answer within this (5 s at full size; generous in the slow tier, where other files share the cores). */
const HANG_MS = FULL ? 5_000 : 30_000;
const RUNS = FULL ? 250 : 20;

const transcript = new Transcript();
let sb: SandboxProcess;
let client: Client;
let session = '';
beforeAll(async () => {
  sb = await startSandbox(transcript, { args: ['--max-connections', '200', '--max-key-connections', '200'] });
  client = new Client(transcript, HANG_MS);
  // a real session for the key routes, so their signed-in side is fuzzed too (org_admin's: the
  // user key must still work at the end)
  const signIn = await client.call(`${sb.origin}/public_api/auth/sign-in`, {
    json: { account: 'org_admin', password: sb.passwords.org_admin },
  });
  session = signIn.body.data.session_token;
});
afterAll(async () => {
  await client?.close();
  await sb?.stop();
  expect(secretsFound(sb.keys, transcript, sb.dataDir, sb.passwords)).toEqual([]);
  removeDir(sb.dataDir);
});

const FIELDS = [
  'model_id',
  'paper_content',
  'rubrics',
  'rubric_text',
  'question_text',
  'assignment_name',
  'assignment_desc',
  'cum_method',
  'total_score',
  'specification',
  'style',
  'student_id',
  'current_feedbacks',
  'evaluations',
  'callback_url',
  'assignment_id',
  'deadline_time',
  'expected_number',
  'project_subject',
  'start_time',
  'file_type',
  'instruction',
  'target_item',
  'sections',
  'assets',
  'questions',
  'item',
  'score',
  'max_score',
  'description',
  'levels',
  '__proto__',
  'constructor',
];

/** Values that have broken parsers before: extremes, wrong types, long and odd strings. */
const nasty = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    9007199254740993,
    -1,
    0,
    1e308,
    -1e308,
    5e-324,
    '',
    ' ',
    '\u0000',
    '\ud800',
    'x'.repeat(600_000),
    '{"a":',
    '[]',
    'null',
    12,
    13,
    21,
    1001,
    'kct_sbx_',
    '../../etc/passwd',
    '%00',
    '<script>',
  ),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 60 }),
);

/** A body that is mostly right, with one field wrong, or anything at all. */
const body = fc.oneof(
  fc
    .record({ field: fc.constantFrom(...FIELDS), value: nasty })
    .map(({ field, value }) => ({ model_id: 12, paper_content: ESSAY, [field]: value })),
  fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 20 })), nasty, { maxKeys: 6 }),
  fc.jsonValue({ maxDepth: 4 }),
);

type Encoding =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; bytes: Uint8Array; type: string }
  | { kind: 'form'; parts: [string, unknown, boolean][] };

const encoding: fc.Arbitrary<Encoding> = fc.oneof(
  body.map((value) => ({ kind: 'json' as const, value })),
  fc
    .record({
      bytes: fc.uint8Array({ maxLength: 4096 }),
      type: fc.constantFrom(
        'application/json',
        'text/plain',
        'multipart/form-data',
        'multipart/form-data; boundary=zz',
        'application/x-www-form-urlencoded',
        'application/json; charset=utf-16',
        'image/png',
        '',
      ),
    })
    .map((r) => ({ kind: 'raw' as const, ...r })),
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...FIELDS, 'file', 'files', 'answer_file', 'rubric_file', 'question_file'), fc.string({ maxLength: 30 })),
        nasty,
        fc.boolean(),
      ),
      { maxLength: 8 },
    )
    .map((parts) => ({ kind: 'form' as const, parts })),
);

const keyOf = fc.constantFrom<'user' | 'org_admin' | 'broke' | 'former_admin' | 'bad' | 'none' | 'long'>(
  'user',
  'user',
  'user',
  'org_admin',
  'broke',
  'former_admin',
  'bad',
  'none',
  'long',
);

const pathParam = fc
  .oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.constantFrom('tsk_000000000000000000000000', '..', '%2e%2e', '%00', 'x'.repeat(3000), '12', '-1', 'tsk_'),
  )
  .map((s) => encodeURIComponent(s));

const extraHeaders = fc.array(
  fc.oneof(
    fc.tuple(
      fc.constantFrom(
        'idempotency-key',
        'x-api-key',
        'content-type',
        'x-token-key',
        'expect',
        'accept',
        'content-encoding',
        'authorization',
      ),
      fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 }),
    ),
    // the session opened in beforeAll (filled in when the request is sent)
    fc.constant<[string, string]>(['authorization', 'Bearer <session>']),
  ),
  { maxLength: 3 },
);

function keyFor(kind: string): string | undefined {
  if (kind === 'none') return undefined;
  if (kind === 'bad') return 'kct_sbx_00000000000000000000000000000000';
  if (kind === 'long') return `kct_${'a'.repeat(9000)}`;
  return sb.keys[kind as keyof typeof sb.keys];
}

/** Sends one generated request; returns what was wrong with the answer, if anything. */
async function probe(
  method: string,
  path: string,
  key: string | undefined,
  enc: Encoding | undefined,
  extra: [string, string][],
): Promise<string | undefined> {
  const headers: string[] = [];
  if (key !== undefined) headers.push('x-api-key', key);
  for (const [name, value] of extra) headers.push(name, value.replace('<session>', session));
  let payload: string | Buffer | FormData | undefined;
  if (enc?.kind === 'json') {
    headers.push('content-type', 'application/json');
    payload = JSON.stringify(enc.value) ?? 'null';
  } else if (enc?.kind === 'raw') {
    if (enc.type) headers.push('content-type', enc.type);
    payload = Buffer.from(enc.bytes);
  } else if (enc?.kind === 'form') {
    const form = new FormData();
    for (const [name, value, asFile] of enc.parts) {
      const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
      if (asFile) form.append(name, new Blob([text], { type: 'text/plain' }), `${name}.txt`);
      else form.append(name, text);
    }
    payload = form;
  }
  let res;
  try {
    res = await client.call(`${sb.origin}${path}`, {
      method,
      headers,
      ...(payload instanceof FormData
        ? { form: payload }
        : payload !== undefined && method !== 'GET' && method !== 'HEAD'
          ? { body: payload }
          : {}),
    });
  } catch (err) {
    const e = err as Error & { code?: string };
    // undici refuses some generated headers itself (e.g. content-length it computes): not the sandbox's doing.
    if (
      e.code === 'UND_ERR_INVALID_ARG' ||
      e.code === 'UND_ERR_NOT_SUPPORTED' ||
      e.name === 'InvalidArgumentError' ||
      e.name === 'NotSupportedError'
    )
      return undefined;
    return `${method} ${path}: no answer (${e.name}: ${e.message}) [${enc?.kind ?? 'no body'}; headers ${JSON.stringify(extra).slice(0, 200)}]`;
  }
  if (res.status >= 500) return `${method} ${path}: HTTP ${res.status} ${res.text.slice(0, 300)}`;
  if (INTERNALS.test(res.text)) return `${method} ${path}: internals in the answer: ${res.text.slice(0, 300)}`;
  if (method !== 'HEAD' && res.status >= 400) {
    if (!res.body?.error?.code || typeof res.body.error.message !== 'string' || !/^req_[0-9a-f]{24}$/.test(res.body.request_id ?? '')) {
      return `${method} ${path}: not the error envelope: ${res.text.slice(0, 300)}`;
    }
  }
  return undefined;
}

const ROUTES = [
  ...Object.entries(OPERATIONS).map(([name, op]) => ({ name, method: op.method, path: `/v1${op.path}` })),
  // sign-out last: it may end the session the others use
  ...Object.entries(PRODUCT_OPERATIONS)
    .filter(([name]) => name !== 'signOut')
    .map(([name, op]) => ({ name, method: op.method, path: op.path })),
  { name: 'signOut', ...PRODUCT_OPERATIONS.signOut },
  { name: 'publicFile', method: 'GET', path: '/files/:token/:name' },
  { name: 'legacy', method: 'POST', path: '/api/open/evaluation/:taskId' },
  { name: 'unknown', method: 'PUT', path: '/v1/:taskId' },
];

describe(`fuzz: every route with generated input (seed ${SEED}, ${RUNS} runs per route)`, () => {
  test.each(ROUTES)('$method $path', async ({ method, path }) => {
    const failures: string[] = [];
    let runs = 0;
    await fc
      .assert(
        fc.asyncProperty(
          keyOf,
          fc.option(encoding, { nil: undefined }),
          extraHeaders,
          pathParam,
          pathParam,
          fc.constantFrom(method, method, method, 'GET', 'DELETE', 'HEAD', 'PATCH'),
          async (who, enc, extra, p1, p2, verb) => {
            runs++;
            const concrete = path.replace(':taskId', p1).replace(':token', p1).replace(':name', p2);
            const problem = await probe(verb, concrete, keyFor(who), enc, extra).catch(
              (err: unknown) => `${verb} ${concrete}: the probe itself failed: ${String(err)}`,
            );
            if (problem) failures.push(problem);
            return problem === undefined;
          },
        ),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      )
      .catch((err: unknown) => {
        if (failures.length === 0) failures.push(`fast-check: ${String(err)}`);
      });
    // The shrunk counterexample, if any, is the last failure; every generated request was sent.
    expect(failures).toEqual([]);
    expect(runs).toBe(RUNS);
  });

  test('afterwards the sandbox still answers, and no received file is left', async () => {
    expect((await client.call(`${sb.baseUrl}/credits`, { key: sb.keys.user })).status).toBe(200);
    expect(sb.child.exitCode).toBeNull();
    await expect.poll(() => readdirSync(join(sb.dataDir, 'files', 'incoming'))).toEqual([]);
  });
});
