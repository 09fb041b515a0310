// What one client may hold open (docs/sandbox.md, "Connections and timeouts"): connections are
// counted per client address as they arrive, before anything is known of them, and per API key
// once a request on them has shown its key. A school behind one NAT address is many clients on
// one address: the address cap is the larger one, the key cap keeps one client (a slow or
// runaway key) from using the address's room up, so the other keys there are still answered.
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionCapLimits {
  /** Connections one client address may hold open at once. */
  maxConnectionsPerClient: number;
  /** Connections one API key may hold open at once, wherever they come from. */
  maxConnectionsPerKey: number;
}

const ADDRESS = Symbol('kct.address');
const OVER_CAP = Symbol('kct.overCap');
const KEY = Symbol('kct.key');

interface CountedSocket extends Socket {
  /** Set on the connections the server accepted and counted (not on fastify's injected requests). */
  [ADDRESS]?: string;
  [OVER_CAP]?: boolean;
  /** The key of the last request admitted on this connection. */
  [KEY]?: number;
}

export class ConnectionCaps {
  private readonly perAddress = new Map<string, number>();
  private readonly perKey = new Map<number, number>();

  constructor(readonly limits: ConnectionCapLimits) {}

  /**
   * Counts the server's connections by address. One beyond its address's cap is served one
   * answer, 503 `too_many_connections` (see overAddressCap), and closed; if it sends nothing it
   * is closed within a second.
   */
  watch(server: Server): void {
    server.on('connection', (socket: CountedSocket) => {
      const address = socket.remoteAddress ?? 'unknown';
      const count = this.perAddress.get(address) ?? 0;
      if (count >= this.limits.maxConnectionsPerClient) {
        socket[OVER_CAP] = true;
        socket.setTimeout(1_000);
        return;
      }
      socket[ADDRESS] = address;
      this.perAddress.set(address, count + 1);
      socket.once('close', () => {
        decrement(this.perAddress, address);
        if (socket[KEY] !== undefined) decrement(this.perKey, socket[KEY]);
      });
    });
  }

  /** Whether a request came on a connection over its address's cap. */
  overAddressCap(req: IncomingMessage): boolean {
    return (req.socket as CountedSocket)[OVER_CAP] === true;
  }

  /**
   * Makes this request's connection one of `keyId`'s: false when the key already holds its cap
   * of other connections (the request is then refused and the connection closed). A connection
   * is the key's from its first request with that key until it closes or carries another key.
   */
  claimForKey(req: IncomingMessage, keyId: number): boolean {
    const socket = req.socket as CountedSocket;
    // not a connection the server counted (an injected request), or already gone
    if (socket[ADDRESS] === undefined || socket.destroyed) return true;
    const current = socket[KEY];
    if (current === keyId) return true;
    const held = this.perKey.get(keyId) ?? 0;
    if (held >= this.limits.maxConnectionsPerKey) return false;
    this.perKey.set(keyId, held + 1);
    if (current !== undefined) decrement(this.perKey, current);
    socket[KEY] = keyId;
    return true;
  }
}

function decrement<K>(counts: Map<K, number>, key: K): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left <= 0) counts.delete(key);
  else counts.set(key, left);
}
