#!/usr/bin/env node
// The floor of the throughput and memory benchmarks: the same one-pass requests kct sends, made
// with undici directly and nothing else (no checks, no retries, no output formatting).
//
//   node bench/floor-submit.js <dir | files...> --jobs 16 [--hash] [--pages]
//   environment: KCT_BASE_URL, KCT_API_KEY
//
// Each answer file: multipart POST /evaluations/one-pass with model_id, student_id (file name
// without extension) and the file as a disk-backed Blob (fs.openAsBlob) in undici's FormData,
// X-API-Key, and a unique Idempotency-Key: a random UUID, or with --hash one derived from the
// SHA-256 of the file read from disk, as kct derives its keys. --pages sends all files as the
// answer_files of ONE request (as kct one-pass --pages). One JSON line per accepted task on stdout.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, openAsBlob, readdirSync, statSync } from 'node:fs';
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

async function submit(paths) {
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
  const response = await request(`${baseUrl}/evaluations/one-pass`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'idempotency-key': key, accept: 'application/json' },
    body: form,
    dispatcher,
  });
  const body = await response.body.json();
  if (response.statusCode >= 300) throw new Error(`HTTP ${response.statusCode}: ${JSON.stringify(body)}`);
  const task = body.data ?? body;
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
