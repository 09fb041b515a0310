#!/usr/bin/env node
// The floor of the throughput and memory benchmarks: the same one-pass requests kct sends, made
// with undici directly and nothing else (no checks, no retries, no output formatting).
//
//   node bench/floor-submit.js <dir | files...> --jobs 16 [--hash] [--pages]
//   environment: KCT_BASE_URL, KCT_API_KEY
//
// Each answer file, as kct sends a plain-text answer: POST /evaluations/one-pass with a JSON body of
// model_id, student_id (file name without extension) and the text as paper_content, X-API-Key, and
// a unique Idempotency-Key: a random UUID, or with --hash one derived from the SHA-256 of the
// file's bytes, as kct derives its keys. --pages sends all files as the answer_files of ONE
// multipart request (as kct one-pass --pages), each a disk-backed Blob (fs.openAsBlob) in undici's
// FormData. One JSON line per accepted task on stdout.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, openAsBlob, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { Agent, FormData, request } from 'undici';

const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  args.splice(at, 1);
  return true;
};
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
};
const hash = flag('--hash');
const pages = flag('--pages');
const jobs = Number(option('--jobs', '16'));
const model = option('--model', '12');
const baseUrl = process.env.KCT_BASE_URL.replace(/\/+$/, '');
const apiKey = process.env.KCT_API_KEY;

const files = args.flatMap((input) =>
  statSync(input).isDirectory()
    ? readdirSync(input)
        .filter((name) => name.endsWith('.txt'))
        .sort()
        .map((name) => join(input, name))
    : [input],
);
const dispatcher = new Agent({ keepAliveTimeout: 10_000 });

async function sha256(path) {
  const digest = createHash('sha256');
  for await (const chunk of createReadStream(path)) digest.update(chunk);
  return digest.digest('hex');
}

/** One answer as kct sends a plain-text one: JSON, no multipart. */
function jsonBody(path) {
  const bytes = readFileSync(path);
  const key = hash ? `floor-${createHash('sha256').update(bytes).digest('hex').slice(0, 40)}` : randomUUID();
  const fields = { model_id: Number(model), student_id: basename(path, extname(path)), paper_content: bytes.toString('utf8') };
  return { key, body: JSON.stringify(fields), type: 'application/json' };
}

/** Several files as the pages of one answer: multipart, each a Blob backed by its file. */
async function formBody(paths) {
  const form = new FormData();
  form.append('model_id', model);
  form.append('student_id', basename(paths[0], extname(paths[0])));
  for (const path of paths) form.append('answer_files', await openAsBlob(path, { type: 'text/plain' }), basename(path));
  const key = hash
    ? `floor-${createHash('sha256')
        .update((await Promise.all(paths.map(sha256))).join())
        .digest('hex')
        .slice(0, 40)}`
    : randomUUID();
  return { key, body: form };
}

async function submit(paths) {
  const { key, body, type } = pages ? await formBody(paths) : jsonBody(paths[0]);
  const response = await request(`${baseUrl}/evaluations/one-pass`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'idempotency-key': key, accept: 'application/json', ...(type ? { 'content-type': type } : {}) },
    body,
    dispatcher,
  });
  const reply = await response.body.json();
  if (response.statusCode >= 300) throw new Error(`HTTP ${response.statusCode}: ${JSON.stringify(reply)}`);
  const task = reply.data ?? reply;
  process.stdout.write(`${JSON.stringify({ file: paths[0], task_id: task.task_id, status: task.status })}\n`);
}

const batches = pages ? [files] : files.map((path) => [path]);
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(jobs, batches.length) }, async () => {
    while (next < batches.length) await submit(batches[next++]);
  }),
);
await dispatcher.close();
