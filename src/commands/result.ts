import type { Context } from '../cli/context.js';
import { printOneResult } from '../cli/render/outcomes.js';
import { resolveFormat } from '../cli/render/rows.js';

export interface ResultOptions {
  taskId: string;
  output?: string;
  json?: boolean;
}

export async function run(options: ResultOptions, context: Context): Promise<void> {
  const format = resolveFormat(options, (await context.settings()).output);
  const client = await context.client();
  const result = await client.result(options.taskId, { signal: context.signal });
  await printOneResult(context.io, format, result);
}
