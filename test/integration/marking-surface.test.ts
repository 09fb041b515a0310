// The whole marking surface from the CLI: assignments and the legacy path, batch with
// callbacks, uploads, feedback rewrite, organization scope, old integrations.

import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, creditsOf, FIXTURES, GENERATED, parseJson, type Sandbox, startSandbox, tempDir } from './harness.js';

const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');

let sandbox: Sandbox;
let kct: ReturnType<typeof asUser>;
let secret: string;
beforeAll(async () => {
  sandbox = await startSandbox({ args: ['--allow-private-callbacks', '--time-scale', '1000'] });
  kct = asUser(sandbox);
  secret = sandbox.webhookSecret;
});
afterAll(async () => {
  await sandbox?.stop();
});

const credits = (run = kct) => creditsOf(run);

describe('assignments and the legacy task path', () => {
  it('assign turns friendly dates into ISO 8601 and creates an active assignment', async () => {
    const run = await kct([
      'assign',
      '--model',
      '12',
      '--name',
      'Uniform essay',
      '--desc',
      'Year 9 persuasive essay',
      '--deadline',
      '2026-12-01',
      '--start',
      '2026-11-20T08:30',
      '--expected',
      '28',
      '--file-type',
      'word',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const assignment = parseJson<{ assignment_id: number; model_id: number; status: string }>(run.stdout);
    expect(assignment.status).toBe('active');
    expect(assignment.model_id).toBe(12);
    expect(assignment.assignment_id).toBeGreaterThanOrEqual(1001);
    const bad = await kct(['assign', '--model', '12', '--name', 'x', '--desc', 'y', '--deadline', '2026-13-45', '--expected', '3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a date');
    const reversed = await kct([
      'assign',
      '--model',
      '12',
      '--name',
      'x',
      '--desc',
      'y',
      '--deadline',
      '2026-12-01',
      '--start',
      '2026-12-05',
      '--expected',
      '3',
    ]);
    expect(reversed.code).toBe(2);
  });

  it("assign: 404 missing model, 409 model not ready, 403 another account's model", async () => {
    const args = ['--name', 'n', '--desc', 'd', '--deadline', '2026-12-01', '--expected', '2'];
    expect((await kct(['assign', '--model', '999', ...args])).code).toBe(6);
    expect((await kct(['assign', '--model', '14', ...args])).code).toBe(7);
    const forbidden = await kct(['assign', '--model', '31', ...args]);
    expect(forbidden.code).toBe(4);
    expect(forbidden.stderr).toContain('HTTP 403');
  });

  it('evaluate: PENDING, charged at acceptance, then marked; text and file', async () => {
    const assignment = parseJson<{ assignment_id: number }>(
      (
        await kct([
          'assign',
          '--model',
          '12',
          '--name',
          'Legacy',
          '--desc',
          'Legacy path',
          '--deadline',
          '2026-12-24',
          '--expected',
          '5',
          '--json',
        ])
      ).stdout,
    );
    const before = await credits();
    const accepted = await kct(['evaluate', '--assignment', String(assignment.assignment_id), '--text', essay, '--no-wait', '--json']);
    expect(accepted.code).toBe(0);
    const task = parseJson<{ task_id: string; status: string; credits_charged: number; assignment_id: number }>(accepted.stdout);
    expect(task.status).toBe('PENDING');
    expect(task.credits_charged).toBeGreaterThan(0);
    expect(before - (await credits())).toBe(task.credits_charged);
    const watched = await kct(['status', task.task_id, '--watch', '--json']);
    expect(watched.code).toBe(0);
    expect(parseJson<{ status: string }>(watched.stdout).status).toBe('SUCCESS');

    const feedback = join(tempDir(), 'feedback.json');
    writeFileSync(feedback, JSON.stringify([{ item: 'Thesis & position', comment: 'Clear position in the first line', score: 4 }]));
    const file = await kct([
      'evaluate',
      '--assignment',
      String(assignment.assignment_id),
      join(GENERATED, 'essay.docx'),
      '--feedback-json',
      feedback,
      '--style',
      'Long',
      '--student-id',
      's-9',
    ]);
    expect(file.code).toBe(0);
    expect(file.stdout).toMatch(/Total: [\d.]+ \/ 20/);
    expect(file.stderr).toContain('charged');
  });

  it('evaluate: bad feedback file is refused locally; a model id where an assignment id belongs is a 404 that says so', async () => {
    const feedback = join(tempDir(), 'feedback.json');
    writeFileSync(feedback, JSON.stringify([{ item: 'Thesis', score: 'high' }]));
    const bad = await kct(['evaluate', '--assignment', '1001', '--text', essay, '--feedback-json', feedback]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--feedback-json');
    const wrong = await kct(['evaluate', '--assignment', '12', '--text', essay]);
    expect(wrong.code).toBe(6);
    expect(wrong.stderr).toMatch(/model/i);
    const reverse = await kct(['one-pass', '--model', '1001', '--text', essay]);
    expect(reverse.code).toBe(6);
    expect(reverse.stderr).toMatch(/assignment/i);
  });

  it('evaluate is never retried: a 503 on submission is reported once, not resent', async () => {
    const run = await kct(['evaluate', '--assignment', '1001', '--text', `${essay} no retry`, '--student-id', 'kct-503-once']);
    expect(run.code).toBe(9);
    expect(run.stderr).toContain('HTTP 503');
    expect(run.stderr).not.toContain('retrying');
  });

  it('evaluate with a short balance is 402 before acceptance', async () => {
    const broke = asUser(sandbox, 'broke');
    const assignment = await broke([
      'assign',
      '--model',
      '15',
      '--name',
      'n',
      '--desc',
      'd',
      '--deadline',
      '2026-12-01',
      '--expected',
      '1',
      '--json',
    ]);
    expect(assignment.code).toBe(0);
    const id = parseJson<{ assignment_id: number }>(assignment.stdout).assignment_id;
    const run = await broke(['evaluate', '--assignment', String(id), '--text', essay]);
    expect(run.code).toBe(5);
  });
});

describe('batch', () => {
  it('250 text answers are split into 3 requests and every item is reported (csv)', async () => {
    const dir = tempDir('kct-batch-');
    const sentences = essay.split(/(?<=\.)\s+/);
    const lines = Array.from({ length: 250 }, (_, i) =>
      JSON.stringify({ student_id: `s${i + 1}`, paper_content: `${sentences.slice(0, 2 + (i % 9)).join(' ')} (${i})` }),
    );
    const manifest = join(dir, 'class.jsonl');
    writeFileSync(manifest, `${lines.join('\n')}\n`);
    const run = await kct(['batch', manifest, '--model', '12', '--output', 'csv'], { timeoutMs: 180_000 });
    expect(run.stderr).toContain('batch 3/3 accepted');
    expect(run.stderr.match(/accepted as tsk_/g)).toHaveLength(3);
    expect(run.code).toBe(0);
    const records = parse(run.stdout, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(250);
    expect(new Set(records.map((r) => r.task_id)).size).toBe(250);
    expect(records.every((r) => r.status === 'SUCCESS')).toBe(true);
    // rows come as each batch finishes: compare the set of students
    expect(new Set(records.map((r) => r.student_id))).toEqual(new Set(Array.from({ length: 250 }, (_, i) => `s${i + 1}`)));
  }, 240_000);

  it('a CSV manifest and a folder of text answers; a failing item gives exit 3', async () => {
    const dir = tempDir('kct-batch-csv-');
    writeFileSync(join(dir, 'a.txt'), essay);
    writeFileSync(join(dir, 'b.txt'), `${essay}\nKCT-SANDBOX-FAIL`);
    const csv = join(dir, 'class.csv');
    writeFileSync(csv, `file,student_id,style\na.txt,ann,Short\nb.txt,ben,Long\n`);
    const fromCsv = await kct(['batch', csv, '--model', '12', '--output', 'ndjson']);
    expect(fromCsv.code).toBe(3);
    const rows = fromCsv.stdout
      .trim()
      .split('\n')
      .map((l) => parseJson<{ student_id: string; status: string }>(l));
    expect(rows.map((r) => [r.student_id, r.status]).sort()).toEqual([
      ['ann', 'SUCCESS'],
      ['ben', 'FAILURE'],
    ]);
    // the folder also holds the CSV manifest: named, never silently dropped, and left out on request
    const stopped = await kct(['batch', dir, '--model', '12', '--json']);
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toContain('class.csv');
    expect(parseJson<{ error: { suggestion: string } }>(stopped.stderr).error.suggestion).toContain('--exclude "*.csv"');
    const fromFolder = await kct(['batch', dir, '--model', '12', '--json', '--exclude', '*.csv']);
    expect(fromFolder.code).toBe(3);
    expect(parseJson<unknown[]>(fromFolder.stdout)).toHaveLength(2);
  });

  it('bad manifests and callback URLs are refused before sending', async () => {
    const dir = tempDir('kct-batch-bad-');
    const manifest = join(dir, 'm.jsonl');
    writeFileSync(manifest, `${JSON.stringify({ student_id: 'x' })}\n{not json}\n`);
    const bad = await kct(['batch', manifest, '--model', '12']);
    expect(bad.code).toBe(2);
    writeFileSync(manifest, `${JSON.stringify({ student_id: 'x' })}\n`);
    const noAnswer = await kct(['batch', manifest, '--model', '12']);
    expect(noAnswer.code).toBe(2);
    expect(noAnswer.stderr).toContain('no answer');
    writeFileSync(manifest, `${JSON.stringify({ paper_content: essay })}\n`);
    const http = await kct(['batch', manifest, '--model', '12', '--callback-url', 'http://example.com/hook']);
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('https');
  });

  it('a callback is delivered, retried after a 500 with the same id, and verifies', async () => {
    const received: { headers: IncomingMessage['headers']; body: string }[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(received.length === 1 ? 500 : 204).end();
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      const dir = tempDir('kct-cb-');
      const manifest = join(dir, 'm.jsonl');
      writeFileSync(manifest, `${JSON.stringify({ student_id: 'cb1', paper_content: `${essay} callback` })}\n`);
      // kct checks for https locally; the sandbox (with --allow-private-callbacks) takes http, so send it raw
      const accepted = await request(`${sandbox.baseUrl}/evaluations/batch`, {
        method: 'POST',
        headers: { 'x-api-key': sandbox.keys.user, 'content-type': 'application/json', 'idempotency-key': `cb-${Date.now()}` },
        body: JSON.stringify({ evaluations: [{ model_id: 12, student_id: 'cb1', paper_content: `${essay} callback` }], callback_url: url }),
      });
      expect(accepted.statusCode).toBe(202);
      const { data } = (await accepted.body.json()) as { data: { task_id: string } };
      const watch = await kct(['status', data.task_id, '--watch']);
      expect(watch.code).toBe(0);
      for (let i = 0; i < 200 && received.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect(received.length).toBeGreaterThanOrEqual(2);
      expect(received[1].headers['webhook-id']).toBe(received[0].headers['webhook-id']);
      const last = received[1];
      const bodyFile = join(dir, 'body.json');
      writeFileSync(bodyFile, last.body);
      const verify = await kct(
        [
          'callbacks',
          'verify',
          '--id',
          String(last.headers['webhook-id']),
          '--timestamp',
          String(last.headers['webhook-timestamp']),
          '--signature',
          String(last.headers['webhook-signature']),
          '--body',
          bodyFile,
        ],
        { env: { KCT_WEBHOOK_SECRET: secret } },
      );
      expect(verify.stderr).toBe('');
      expect(verify.code).toBe(0);
      expect(verify.stdout).toContain('valid');
      writeFileSync(bodyFile, last.body.replace('cb1', 'cb2'));
      const tampered = await kct(
        [
          'callbacks',
          'verify',
          '--id',
          String(last.headers['webhook-id']),
          '--timestamp',
          String(last.headers['webhook-timestamp']),
          '--signature',
          String(last.headers['webhook-signature']),
          '--body',
          bodyFile,
        ],
        { env: { KCT_WEBHOOK_SECRET: secret } },
      );
      expect(tampered.code).toBe(4);
      expect(JSON.parse(last.body).data.task_id).toBe(data.task_id);
    } finally {
      server.close();
    }
  }, 60_000);
});

describe('callbacks to private addresses', () => {
  it('are refused (400) by a sandbox started without --allow-private-callbacks', async () => {
    const strict = await startSandbox();
    try {
      const dir = tempDir();
      const manifest = join(dir, 'm.jsonl');
      writeFileSync(manifest, `${JSON.stringify({ paper_content: essay })}\n`);
      for (const url of ['https://127.0.0.1/hook', 'https://[::ffff:10.0.0.1]/hook', 'https://169.254.169.254/latest']) {
        const run = await asUser(strict)(['batch', manifest, '--model', '12', '--callback-url', url]);
        expect(run.code, url).toBe(2);
        expect(run.stderr).toContain('HTTP 400');
        // and what would work: a reachable https host, or the sandbox's own way of calling this machine
        expect(run.stderr).toContain('hint: Give an https URL whose host the service can reach on the internet.');
        expect(run.stderr).toContain('--allow-private-callbacks');
      }
    } finally {
      await strict.stop();
    }
  });
});

describe('uploads and feedback rewrite', () => {
  it('uploads each file and serves it back at its public URL without a key', async () => {
    const run = await kct(['upload', join(FIXTURES, 'essay.txt'), join(GENERATED, 'essay.pdf'), '--json']);
    expect(run.code).toBe(0);
    const files = parseJson<{ name: string; mime_type: string; size: number; url: string }[]>(run.stdout);
    expect(files.map((f) => f.mime_type)).toEqual(['text/plain', 'application/pdf']);
    const served = await request(files[0].url);
    expect(served.statusCode).toBe(200);
    expect(await served.body.text()).toBe(essay);
    const bad = await kct(['upload', join(tempDir(), 'missing.pdf')]);
    expect(bad.code).toBe(2);
  });

  it('rewrites feedback from a task id or a saved result, per style and criterion', async () => {
    const done = parseJson<{ task_id: string }>((await kct(['one-pass', '--model', '12', '--text', `${essay} rewrite`, '--json'])).stdout);
    const paragraph = await kct(['rewrite', done.task_id, '--style', 'paragraph', '--json']);
    expect(paragraph.code).toBe(0);
    const sections = parseJson<{ sections: { item: string; comment: string }[] }>(paragraph.stdout).sections;
    expect(sections).toHaveLength(4);
    expect(sections.every((s) => !s.comment.includes('\n- '))).toBe(true);
    const saved = join(tempDir(), 'result.json');
    writeFileSync(saved, (await kct(['result', done.task_id, '--json'])).stdout);
    const bullets = await kct(['rewrite', saved, '--style', 'bullet_points', '--item', 'Organisation', '--json']);
    expect(bullets.code).toBe(0);
    const rewritten = parseJson<{ sections: { item: string; comment: string; rewritten?: boolean }[] }>(bullets.stdout).sections;
    const organisation = rewritten.find((s) => s.item === 'Organisation');
    expect(organisation?.comment).toMatch(/^- /m);
    const unknown = await kct(['rewrite', done.task_id, '--style', 'paragraph', '--item', 'Handwriting']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Criteria:');
  });

  it("rewrite of a batch says it is one, and names an answer's task to rewrite instead", async () => {
    const manifest = join(tempDir(), 'answers.jsonl');
    writeFileSync(manifest, [`${essay} batch one`, `${essay} batch two`].map((text) => JSON.stringify({ paper_content: text })).join('\n'));
    const [batch] = parseJson<{ task_id: string }[]>((await kct(['batch', manifest, '--model', '12', '--no-wait', '--json'])).stdout);
    await kct(['status', batch.task_id, '--watch']);
    const listed = (await kct(['result', batch.task_id, '--output', 'ndjson'])).stdout.trim().split('\n');
    const items = listed.map((line) => parseJson<{ task_id: string }>(line).task_id);
    const rewrite = await kct(['rewrite', batch.task_id, '--style', 'paragraph']);
    expect(rewrite.code).toBe(2);
    expect(rewrite.stderr).toContain(`${batch.task_id} is a batch of 2 answers`);
    expect(rewrite.stderr).toContain(`kct result ${batch.task_id} --output ndjson`);
    // the task it names is one of the batch's answers, as the command it suggests lists them
    expect(items).toHaveLength(2);
    expect(rewrite.stderr).toContain(`such as ${items[0]}`);
  });
});

describe('organization scope and old integrations', () => {
  it("an organization key sees the organization's models; a member's user key only its own; a former admin gets 403", async () => {
    const admin = parseJson<{ model_id: number }[]>((await asUser(sandbox, 'org_admin')(['models', '--json'])).stdout).map(
      (m) => m.model_id,
    );
    const member = parseJson<{ model_id: number }[]>((await asUser(sandbox, 'org_member')(['models', '--json'])).stdout).map(
      (m) => m.model_id,
    );
    expect(admin).toContain(21);
    expect(admin).not.toContain(12);
    expect(member).toEqual([31]);
    const former = await asUser(sandbox, 'former_admin')(['credits']);
    expect(former.code).toBe(4);
  });

  it("credits for an organization-scope task come from the key owner's account", async () => {
    const admin = asUser(sandbox, 'org_admin');
    const before = await credits(admin);
    const run = await admin(['one-pass', '--model', '21', '--text', `${essay} organization`, '--json']);
    expect(run.code).toBe(0);
    const result = parseJson<{ scope: string; billing_mode: string; credits_charged: number }>(run.stdout);
    expect(result.scope).toBe('organization');
    expect(result.billing_mode).toBe('owner_user');
    expect(before - (await credits(admin))).toBe(result.credits_charged);
  });

  it('X-TOKEN-KEY alone is 401 pointing at X-API-Key; legacy routes are 404 with the v1 route', async () => {
    const origin = new URL(sandbox.baseUrl).origin;
    const legacyHeader = await request(`${sandbox.baseUrl}/credits`, { headers: { 'x-token-key': sandbox.keys.user } });
    expect(legacyHeader.statusCode).toBe(401);
    expect(JSON.stringify(await legacyHeader.body.json())).toContain('X-API-Key');
    const legacyRoute = await request(`${origin}/api/open/evaluation/start`, {
      method: 'POST',
      headers: { 'x-api-key': sandbox.keys.user },
    });
    expect(legacyRoute.statusCode).toBe(404);
    expect(JSON.stringify(await legacyRoute.body.json())).toContain('/evaluations');
  });
});
