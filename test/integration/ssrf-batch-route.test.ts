// The reported SSRF bypass, at acceptance through a running sandbox's batch route: every spelling
// of a loopback callback_url is a 400 and nothing is queued. Each spelling's verdict on its own is
// test/unit/ssrf-spellings.test.ts.
import { describe, expect, test } from 'vitest';
import { ESSAY, launch } from '../unit/sandbox-helpers.js';

describe('at acceptance, through the batch route', () => {
  test('the reported bypass https://[::127.0.0.1]/cb is a 400 invalid_callback_url, and nothing is queued', async () => {
    const sb = await launch();
    try {
      for (const url of ['https://[::127.0.0.1]/cb', 'https://[::ffff:0:7f00:1]/cb', 'https://[2002:7f00:1::]/cb', 'https://0x7f.1/cb']) {
        const res = await sb.call('POST', '/evaluations/batch', {
          json: { evaluations: [{ model_id: 12, paper_content: ESSAY }], callback_url: url },
        });
        expect(res.status, url).toBe(400);
        expect(res.body.error.code, url).toBe('invalid_callback_url');
      }
      expect((await sb.call('GET', '/credits')).body.data.reserved).toBe(0);
    } finally {
      await sb.dispose();
    }
  });
});
