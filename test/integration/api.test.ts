// kct api: authenticated requests to any route of a real sandbox, with fields, JSON input,
// multipart files, the envelope unwrapped (or kept with --raw) and the usual exit codes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeApi, parseJson, sendJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

describe('kct api', () => {
  it('GET a route: the envelope unwrapped; --raw keeps it; the path may repeat /v1', async () => {
    const run = await shared.kct(['api', '/credits']);
    expect(run.code).toBe(0);
    expect(parseJson<{ credits: number; scope: string }>(run.stdout)).toMatchObject({ credits: expect.any(Number), scope: 'user' });
    const raw = parseJson<{ data: { credits: number }; request_id: string }>(
      (await shared.kct(['api', 'GET', '/v1/credits', '--raw'])).stdout,
    );
    expect(raw.request_id).toMatch(/^req_/);
    expect(typeof raw.data.credits).toBe('number');
    const bare = parseJson<{ model_id: number }[]>((await shared.kct(['api', 'models'])).stdout);
    expect(bare.map((model) => model.model_id)).toEqual([12, 13, 14]);
  });

  it('--include prints the status line and headers first', async () => {
    const run = await shared.kct(['api', '/credits', '--include']);
    expect(run.stdout).toMatch(/^HTTP 200 OK\n/);
    expect(run.stdout).toMatch(/\nx-request-id: req_\w+\n/);
    expect(run.stdout).toMatch(/\n\n\{\n/);
  });

  it('-F typed and -f string fields make a JSON body (POST by default); -H Idempotency-Key makes it safe to repeat', async () => {
    const args = [
      'api',
      '/evaluations/one-pass',
      '-F',
      'model_id=12',
      '-f',
      'paper_content=Uniforms help students focus on learning.',
      '-f',
      'student_id=007',
      '-H',
      'Idempotency-Key:api-test-1',
    ];
    const first = await shared.kct(args);
    expect(first.code).toBe(0);
    const task = parseJson<{ task_id: string; status: string; student_id: string }>(first.stdout);
    expect(task).toMatchObject({ status: 'QUEUED', student_id: '007' });
    const again = parseJson<{ task_id: string }>((await shared.kct(args)).stdout);
    expect(again.task_id).toBe(task.task_id);
  });

  it('-F field=@file sends multipart', async () => {
    const dir = tempDir();
    const essay = join(dir, 'essay.txt');
    writeFileSync(essay, 'Reading every day builds vocabulary and focus.');
    const run = await shared.kct([
      'api',
      'POST',
      '/evaluations/one-pass',
      '-F',
      'model_id=12',
      '-F',
      `answer_files=@${essay}`,
      '-f',
      'style=Short',
    ]);
    expect(run.code).toBe(0);
    const task = parseJson<{ task_id: string }>(run.stdout);
    const result = parseJson<{ status: string }>((await shared.kct(['status', task.task_id, '--watch', '--json'])).stdout);
    expect(result.status).toBe('SUCCESS');
  });

  it('--input FILE and --input - send a JSON body', async () => {
    const dir = tempDir();
    const body = join(dir, 'batch.json');
    writeFileSync(
      body,
      JSON.stringify({
        evaluations: [
          { model_id: 12, paper_content: 'One answer.' },
          { model_id: 12, paper_content: 'Another answer.' },
        ],
      }),
    );
    const fromFile = parseJson<{ count: number }>((await shared.kct(['api', 'POST', '/evaluations/batch', '--input', body])).stdout);
    expect(fromFile.count).toBe(2);
    const fromStdin = await shared.kct(['api', 'POST', '/feedback-rewrite', '--input', '-'], {
      input: JSON.stringify({
        style: 'paragraph',
        sections: [{ item: 'Organisation', comment: 'Clear paragraphs. Good links.', score: 4, max_score: 5 }],
      }),
    });
    expect(fromStdin.code).toBe(0);
    expect(parseJson<{ sections: unknown[] }>(fromStdin.stdout).sections).toHaveLength(1);
  });

  it('an HTTP error prints its body on stdout and exits with the usual code', async () => {
    const missing = await shared.kct(['api', '/evaluations/tsk_nope']);
    expect(missing.code).toBe(6);
    expect(parseJson<{ error: { code: string } }>(missing.stdout).error.code).toBe('task_not_found');
    expect(missing.stderr).toContain('HTTP 404');
    const invalid = await shared.kct(['api', 'POST', '/evaluations/one-pass', '-F', 'model_id=12']);
    expect(invalid.code).toBe(2);
    const refused = await shared.kct(['api', '/credits'], { env: { KCT_API_KEY: 'kct_bad_key_0000000000000000' } });
    expect(refused.code).toBe(4);
    const notReady = await shared.kct(['api', 'POST', '/evaluations/one-pass', '-F', 'model_id=14', '-f', 'paper_content=x']);
    expect(notReady.code).toBe(7);
  });

  it('refuses bad input before sending: method, fields, headers, JSON, files, other hosts', async () => {
    const cases: [string[], RegExp][] = [
      [['api', 'FETCH', '/credits'], /not an HTTP method/],
      [['api', '/x', '-f', 'novalue'], /expected key=value/],
      [['api', '/credits', '-H', 'X-API-Key:kct_other_key_000000000'], /kct sets this header itself/],
      [['api', 'GET', '/credits', '--input', '-'], /has no body/],
      [['api', 'POST', '/evaluations/batch', '--input', join(tempDir(), 'missing.json')], /file not found/],
      [['api', 'POST', '/evaluations/one-pass', '-F', 'answer_files=@/nonexistent/essay.pdf'], /file not found/],
      [['api', 'https://elsewhere.example/v1/credits'], /not under the base URL/],
    ];
    for (const [args, message] of cases) {
      const run = await shared.kct(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stderr).not.toContain('kct_other_key_000000000');
    }
    const bad = await shared.kct(['api', 'POST', '/evaluations/batch', '--input', '-'], { input: '{"evaluations": [' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not valid JSON');
  });

  it('prints what a route the spec leaves open sends, as it came (text included)', async () => {
    const api = await fakeApi((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/v1/new-route' && url.searchParams.get('page') === '2' && url.searchParams.getAll('tag').join() === 'a,b')
        sendJson(res, 200, { data: { items: [1, 2] }, request_id: 'req_1' });
      else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('plain words');
      }
    });
    try {
      const run = await shared.kct([
        'api',
        'GET',
        '/new-route',
        '-F',
        'page=2',
        '-f',
        'tag[]=a',
        '-f',
        'tag[]=b',
        '--base-url',
        api.baseUrl,
      ]);
      expect(parseJson(run.stdout)).toEqual({ items: [1, 2] });
      expect((await shared.kct(['api', '/other', '--base-url', api.baseUrl])).stdout).toBe('plain words\n');
    } finally {
      await api.close();
    }
  });
});
