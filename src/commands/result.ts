import type { Context } from '../cli/context.js';
import { out } from '../cli/io.js';
import { printResult } from '../cli/render/result.js';
import { resolveFormat } from '../cli/render/rows.js';

export interface ResultOptions {
  taskId: string;
  output?: string;
  json?: boolean;
}

export async function run(options: ResultOptions, context: Context): Promise<void> {
  const client = await context.client();
  const result = await client.result(options.taskId, { signal: context.signal });
  const format = resolveFormat(options);
  if (format === 'table') await printResult(context.io, result);
  else out(context.io, JSON.stringify(result, null, format === 'json' ? 2 : 0));
}
