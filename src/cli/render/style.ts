import { Chalk, type ChalkInstance } from 'chalk';
import type { IO } from '../core/io.js';

export { formatNumber, plural } from '../../api/numbers.js';

const cache = new WeakMap<IO, ChalkInstance>();

/** A chalk instance that colours only when this IO allows it (NO_COLOR, --no-color, TTY). */
export function paint(io: IO): ChalkInstance {
  let instance = cache.get(io);
  if (!instance) {
    instance = new Chalk({ level: io.color ? 1 : 0 });
    cache.set(io, instance);
  }
  return instance;
}

export function statusColor(io: IO, status: string): string {
  const c = paint(io);
  const upper = status.toUpperCase();
  if (upper === 'SUCCESS') return c.green(status);
  if (upper === 'FAILURE') return c.red(status);
  if (upper === 'CANCEL') return c.yellow(status);
  return c.cyan(status);
}
