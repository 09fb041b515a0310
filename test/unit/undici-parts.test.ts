// src/client/undici.ts loads undici's modules by their internal paths (to skip its index): these
// tests fail if an undici upgrade moves them, and check a multipart upload end to end through them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formFileBytes, PACE_MIN_BYTES, paceCollections } from '../../src/client/gc-pacer.js';
import { Agent, EnvHttpProxyAgent, FormData } from '../../src/client/undici.js';

describe('undici parts', () => {
  it('are the very classes undici exports', async () => {
    const undici = await import('undici');
    expect(Agent).toBe(undici.Agent);
    expect(EnvHttpProxyAgent).toBe(undici.EnvHttpProxyAgent);
    expect(FormData).toBe(undici.FormData);
    expect(typeof new Agent().request).toBe('function');
  });

  it('the connector connector.ts wraps is undici\'s own', async () => {
    const undici = await import('undici');
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    expect(require('undici/lib/core/connect.js')).toBe(undici.buildConnector);
  });

  describe('request', () => {
    let origin: string;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, url: req.url, type: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') }));
      });
    });
    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('sends a multipart form with a file part, path and query intact, on a dispatcher built from the parts', async () => {
      const agent = new Agent();
      try {
        const form = new FormData();
        form.append('model_id', '12');
        form.append('answer_files', new Blob(['An essay about rivers.'], { type: 'text/plain' }), 'essay.txt');
        const response = await agent.request({ origin, path: '/v1/evaluations/one-pass?x=1', method: 'POST', body: form });
        expect(response.statusCode).toBe(200);
        const seen = (await response.body.json()) as { method: string; url: string; type: string; body: string };
        expect(seen.method).toBe('POST');
        expect(seen.url).toBe('/v1/evaluations/one-pass?x=1');
        expect(seen.type).toMatch(/^multipart\/form-data; boundary=/);
        expect(seen.body).toContain('name="answer_files"; filename="essay.txt"');
        expect(seen.body).toContain('Content-Type: text/plain');
        expect(seen.body).toContain('An essay about rivers.');
      } finally {
        await agent.close();
      }
    });
  });
});

describe('gc pacer', () => {
  it('counts the bytes of the files in a form, not its text fields', () => {
    const form = new FormData();
    form.append('model_id', '12');
    form.append('answer_files', new Blob(['x'.repeat(1000)]), 'a.txt');
    form.append('answer_files', new Blob(['y'.repeat(24)]), 'b.txt');
    expect(formFileBytes(form)).toBe(1024);
  });

  it('paces a large body with V8 collections and stops when told', () => {
    const stop = paceCollections(PACE_MIN_BYTES);
    try {
      // the collector comes from V8's gc extension, exposed at run time
      expect(runInNewContext('typeof gc')).toBe('function');
    } finally {
      stop();
    }
  });
});
