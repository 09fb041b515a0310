// The origin of the URLs the sandbox hands out (upload URLs, spec 4.14): `--public-url` when
// given, else the address it listens on. Never the request's Host header, which the client
// chooses: `Host: evil.example` must not put evil.example into a URL others will fetch.
import type { AddressInfo } from 'node:net';
import { isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';

/** Where uploaded files are served, without a key (routes/uploads.ts). */
export const PUBLIC_FILES_PREFIX = '/files';

export function publicOrigin(ctx: Pick<SandboxContext, 'settings'>, request: FastifyRequest): string {
  if (ctx.settings.publicUrl) return ctx.settings.publicUrl;
  const listening = request.server.server.address() as AddressInfo | string | null;
  let host = typeof listening === 'object' && listening ? listening.address : undefined;
  let port = typeof listening === 'object' && listening ? listening.port : undefined;
  // Listening on every address (0.0.0.0, ::): the server's own address this connection reached.
  if (host === undefined || host === '0.0.0.0' || host === '::') {
    host = request.socket.localAddress ?? '127.0.0.1';
    port = request.socket.localPort ?? port;
  }
  host = host.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  const hostForUrl = isIPv6(host) ? `[${host}]` : host;
  return port ? `http://${hostForUrl}:${port}` : `http://${hostForUrl}`;
}
