// Connections one API key may hold (docs/security.md, "Connections"): a school behind one NAT
// address is many clients on one address. 100 slow connections from this address with one key
// (each sends its headers and a piece of its body, then nothing) hold at most the key's cap;
// the rest are refused 503 and closed, and a second key on the same address is answered
// meanwhile. Real sockets on loopback, the sandbox's default caps (256 an address, 64 a key).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launch, type TestSandbox } from '../unit/sandbox-helpers.js';

const SLOW = 100;
const KEY_CAP = 64;

let sb: TestSandbox;
let port: number;
beforeAll(async () => {
  sb = await launch();
  port = Number(new URL(sb.baseUrl).port);
});
afterAll(async () => {
  await sb.dispose();
});

interface Slow {
  socket: net.Socket;
  /** What the sandbox sent on it so far. */
  text: () => string;
  closed: Promise<void>;
}

/** A client that sends its headers and the first bytes of a 1,000-byte body, then nothing. */
function slowUpload(key: string): Promise<Slow> {
  return new Promise((resolve) => {
    let text = '';
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /v1/evaluations/one-pass HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"model_id": 12, `,
      );
      resolve({ socket, text: () => text, closed });
    });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on('error', () => undefined);
  });
}

/** One request on a new connection: the status line and the error code, if any. */
function once(key: string): Promise<{ status: number; code?: string }> {
  return new Promise((resolve) => {
    let text = '';
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(`GET /v1/credits HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on('error', () => undefined);
    socket.once('close', () =>
      resolve({ status: Number(text.slice(9, 12)), ...(/"code":"(\w+)"/.test(text) ? { code: /"code":"(\w+)"/.exec(text)![1] } : {}) }),
    );
  });
}

describe('connections per API key', () => {
  test(`${SLOW} slow connections with one key hold at most ${KEY_CAP}; a second key on the same address is answered meanwhile`, async () => {
    const slow = await Promise.all(Array.from({ length: SLOW }, () => slowUpload(sb.keys.user)));
    try {
      // those over the key's cap are answered 503 and closed; the others wait for their bodies
      await expect.poll(() => slow.filter((s) => s.text() !== '').length, { timeout: 10_000 }).toBe(SLOW - KEY_CAP);
      const refused = slow.filter((s) => s.text() !== '');
      for (const s of refused) {
        expect(s.text()).toMatch(/^HTTP\/1\.1 503 /);
        expect(s.text().toLowerCase()).toContain('retry-after: 1');
        expect(s.text()).toContain('"code":"too_many_connections"');
        expect(s.text()).toContain('at most 64 at once');
      }
      await Promise.all(refused.map((s) => s.closed));
      // the address has room: the key's connections do not lock its neighbours out
      expect(await once(sb.keys.org_admin)).toEqual({ status: 200 });
      // while the slow key itself is over its cap on a new connection too
      expect(await once(sb.keys.user)).toEqual({ status: 503, code: 'too_many_connections' });
    } finally {
      for (const s of slow) s.socket.destroy();
    }
    // closing them gives the key its room back
    await expect.poll(async () => (await once(sb.keys.user)).status).toBe(200);
  });
});
