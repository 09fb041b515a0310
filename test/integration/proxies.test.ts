// kct through an HTTP proxy: HTTP_PROXY and HTTPS_PROXY (CONNECT), and around it for NO_PROXY
// hosts, taken from the environment main() is given, never from the test process's own (undici
// would read that one unless told: client/transport.ts). The rest of kct on the wire is
// test/integration/network.test.ts.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { asUser, useSandbox } from './harness.js';

const shared = useSandbox({ latencyMs: 60 });

describe('proxies', () => {
  it('goes through HTTP_PROXY (CONNECT), and around it for NO_PROXY hosts', async () => {
    // the settings are main()'s env only: with undici reading process.env, no tunnel would open
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'])
      expect(process.env[name]).toBeUndefined();
    let tunnels = 0;
    const proxy: Server = createServer((_, res) => res.writeHead(405).end());
    proxy.on('connect', (req, client: Socket, head: Buffer) => {
      tunnels += 1;
      const [host, port] = String(req.url).split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const viaProxy = await asUser(shared.sandbox)(['credits'], { env: { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl } });
      expect(viaProxy.code).toBe(0);
      expect(tunnels).toBeGreaterThanOrEqual(1);
      const before = tunnels;
      const bypass = await asUser(shared.sandbox)(['credits'], { env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } });
      expect(bypass.code).toBe(0);
      expect(tunnels).toBe(before);
    } finally {
      proxy.close();
    }
  });
});
