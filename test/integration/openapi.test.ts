// The OpenAPI 3.1 document: generated from the zod contract, valid OpenAPI, committed without
// drift as docs/openapi.json, served by the sandbox, and truthful: the sandbox's real answers
// match the response schemas it gives.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { FormData, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi.js';
import { OPERATIONS } from '../../src/api/operations.js';
import { PRODUCT_OPERATIONS } from '../../src/api/product.js';
import { VERSION } from '../../src/version.js';
import { dispatcher, ESSAY, type Reply, sandboxForFile } from '../unit/sandbox-helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const committed = JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8')) as Record<string, any>;
const generated = openApiDocument({ version: VERSION }) as Record<string, any>;

describe('the OpenAPI document', () => {
  it('docs/openapi.json is what the contract generates (run `npm run openapi` after changing src/api)', () => {
    expect(committed, 'docs/openapi.json is out of date: run `npm run openapi`').toEqual(JSON.parse(JSON.stringify(generated)));
  });

  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(generated);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has every operation of the route table, with the key as its security', () => {
    for (const [name, op] of Object.entries(OPERATIONS)) {
      const path = op.path.replace(/:(\w+)/g, '{$1}');
      expect(generated.paths[path]?.[op.method.toLowerCase()]?.operationId, `${op.method} ${path}`).toBe(name);
    }
    expect(generated.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    // every $ref points at something that exists
    const refs = [...JSON.stringify(generated).matchAll(/"\$ref":"#\/components\/(\w+)\/(\w+)"/g)];
    expect(refs.length).toBeGreaterThan(20);
    for (const [, kind, name] of refs) expect(generated.components[kind]?.[name], `${kind}/${name}`).toBeDefined();
  });
});

describe('the sandbox against the document', () => {
  const sandbox = sandboxForFile();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv); // a CommonJS module: its default export is the plugin
  const BASE = 'https://kct.test/openapi';
  ajv.addSchema({ $id: BASE, components: generated.components });

  /** The response schema the document gives for this route and status, with refs made absolute. */
  const check = (method: string, path: string, reply: Reply) => {
    const operation = generated.paths[path][method.toLowerCase()];
    const response = operation.responses[String(reply.status)];
    expect(response, `${method} ${path} documents HTTP ${reply.status}`).toBeDefined();
    const schema = response.$ref
      ? { $ref: `${BASE}#/components/responses/${response.$ref.split('/').pop()}/content/application~1json/schema` }
      : JSON.parse(JSON.stringify(response.content['application/json'].schema).replaceAll('"#/components/', `"${BASE}#/components/`));
    const validate = ajv.compile(schema);
    expect(
      validate(reply.body),
      `${method} ${path} ${reply.status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(reply.body).slice(0, 400)}`,
    ).toBe(true);
  };

  it('serves the document at /v1/openapi.json without a key, naming itself as the server', async () => {
    const reply = await sandbox.call('GET', '/openapi.json', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    const { servers, ...rest } = reply.body as Record<string, unknown>;
    expect(servers).toEqual([{ url: sandbox.baseUrl, description: 'this kct sandbox' }]);
    const { servers: _servers, ...expected } = committed;
    expect(rest).toEqual(expected);
  });

  it('answers account, model, marking and file routes as the document says', async () => {
    check('GET', '/credits', await sandbox.call('GET', '/credits'));
    check('GET', '/models', await sandbox.call('GET', '/models'));
    check('GET', '/credits', await sandbox.call('GET', '/credits', { key: 'kct_not_valid_0000000000' }));

    const accepted = await sandbox.call('POST', '/evaluations/one-pass', {
      json: { model_id: 12, paper_content: ESSAY, student_id: 's-1' },
      headers: { 'idempotency-key': 'openapi-1' },
    });
    check('POST', '/evaluations/one-pass', accepted);
    const taskId = accepted.body.data.task_id as string;
    await sandbox.waitFor(taskId, sandbox.keys.user);
    check('GET', '/evaluations/{taskId}/status', await sandbox.call('GET', `/evaluations/${taskId}/status`));
    check('GET', '/evaluations/{taskId}', await sandbox.call('GET', `/evaluations/${taskId}`));
    check('POST', '/evaluations/{taskId}/cancel', await sandbox.call('POST', `/evaluations/${taskId}/cancel`));
    check('GET', '/evaluations/{taskId}', await sandbox.call('GET', '/evaluations/tsk_missing'));

    const batch = await sandbox.call('POST', '/evaluations/batch', {
      json: {
        evaluations: [
          { model_id: 12, paper_content: ESSAY },
          { model_id: 13, paper_content: ESSAY },
        ],
      },
    });
    check('POST', '/evaluations/batch', batch);
    await sandbox.waitFor(batch.body.data.task_id, sandbox.keys.user);
    check('GET', '/evaluations/{taskId}', await sandbox.call('GET', `/evaluations/${batch.body.data.task_id}`));
    check(
      'POST',
      '/evaluations/one-pass',
      await sandbox.call('POST', '/evaluations/one-pass', { json: { model_id: 12, paper_content: ESSAY }, key: sandbox.keys.broke }),
    );

    const assignment = await sandbox.call('POST', '/assignments', {
      json: { model_id: 12, assignment_name: 'Essay', assignment_desc: 'Draft', deadline_time: '2030-01-01T00:00:00Z', expected_number: 3 },
    });
    check('POST', '/assignments', assignment);
    const form = new FormData();
    form.append('assignment_id', String(assignment.body.data.assignment_id));
    form.append('answer_file', new Blob([ESSAY], { type: 'text/plain' }), 'essay.txt');
    check('POST', '/evaluations', await sandbox.call('POST', '/evaluations', { form }));

    const upload = new FormData();
    upload.append('file', new Blob(['Question 1. Should schools require uniforms?'], { type: 'text/plain' }), 'paper.txt');
    check('POST', '/uploads/file', await sandbox.call('POST', '/uploads/file', { form: upload }));
    const preview = new FormData();
    preview.append('files', new Blob(['Question 1. Should schools require uniforms? (10 marks)'], { type: 'text/plain' }), 'paper.txt');
    check('POST', '/questions-ingest-preview', await sandbox.call('POST', '/questions-ingest-preview', { form: preview }));
    check(
      'POST',
      '/feedback-rewrite',
      await sandbox.call('POST', '/feedback-rewrite', {
        json: { style: 'paragraph', sections: [{ item: 'Organisation', comment: 'Clear. Linked.', score: 4, max_score: 5 }] },
      }),
    );
    check(
      'POST',
      '/models',
      await sandbox.call('POST', '/models', {
        json: {
          assignment_name: 'Letter',
          assignment_desc: 'A persuasive letter',
          questions: [{ number: '1', text: 'Write a letter.' }],
          rubrics: [{ item: 'Content', max_score: 10 }],
          total_score: 10,
          cum_method: 'sum',
        },
      }),
    );
    check('POST', '/models', await sandbox.call('POST', '/models', { json: { assignment_name: 'x' } }));
  });

  it('documents the key routes at the product base, behind a session, and the sandbox answers them as it says', async () => {
    for (const [name, op] of Object.entries(PRODUCT_OPERATIONS)) {
      const item = generated.paths[op.path];
      expect(item?.[op.method.toLowerCase()]?.operationId, op.path).toBe(name);
      expect(item.servers[0].url).toBe('{product_base}');
      expect(item[op.method.toLowerCase()].security).toEqual(name === 'signIn' ? [] : [{ SessionToken: [] }]);
    }
    const product = async (method: string, path: string, json?: unknown, token?: string): Promise<Reply> => {
      const res = await request(sandbox.productUrl + path, {
        method: method as 'GET',
        dispatcher,
        headers: {
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
      return { status: res.statusCode, headers: res.headers, body: await res.body.json() };
    };
    const signIn = await product('POST', '/public_api/auth/sign-in', { account: 'org_admin', password: sandbox.passwords.org_admin });
    check('POST', '/public_api/auth/sign-in', signIn);
    check(
      'POST',
      '/public_api/auth/sign-in',
      await product('POST', '/public_api/auth/sign-in', { account: 'org_admin', password: 'wrong' }),
    );
    const token = signIn.body.data.session_token as string;
    const created = await product('POST', '/public_api/keys/create', { scope: 'organization', name: 'openapi' }, token);
    check('POST', '/public_api/keys/create', created);
    check('POST', '/public_api/keys/create', await product('POST', '/public_api/keys/create', { scope: 'nope' }, token));
    check('GET', '/public_api/keys/list', await product('GET', '/public_api/keys/list', undefined, token));
    check('POST', '/public_api/keys/revoke', await product('POST', '/public_api/keys/revoke', { id: created.body.data.id }, token));
    check('POST', '/public_api/keys/revoke', await product('POST', '/public_api/keys/revoke', { id: 424242 }, token));
    const member = await product('POST', '/public_api/auth/sign-in', { account: 'org_member', password: sandbox.passwords.org_member });
    check(
      'POST',
      '/public_api/keys/create',
      await product('POST', '/public_api/keys/create', { scope: 'organization' }, member.body.data.session_token),
    );
    check('POST', '/public_api/auth/sign-out', await product('POST', '/public_api/auth/sign-out', {}, token));
    check('GET', '/public_api/keys/list', await product('GET', '/public_api/keys/list', undefined, token));
  });
});
