import { configPath } from '../cli/config-store.js';
import type { Context } from '../cli/context.js';
import { out } from '../cli/io.js';

export async function run(options: { json?: boolean }, context: Context): Promise<void> {
  const path = configPath(context.env);
  out(context.io, options.json ? JSON.stringify({ path }) : path);
}
