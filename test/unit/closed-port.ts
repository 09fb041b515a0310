// A loopback port nothing listens on, for a server that is not there: bound, then closed.
import { createServer } from 'node:net';

export async function closedPort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, host, listening));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}
