import { exporterFor } from '../render/export.js';
import type { Context } from './context.js';
import { EXIT_CODE_TABLE } from './exit-codes.js';
import { out } from './io.js';

/** `kct help exit-codes`: the table for people, or its rows in the format chosen (--json, KCT_OUTPUT). */
export async function printExitCodes(context: Context, output?: string): Promise<void> {
  const exporter = await exporterFor({ ...context.globals, ...(output !== undefined ? { output } : {}) }, context);
  if (exporter.format === 'table') {
    out(context.io, 'Exit codes (the same for every command):');
    for (const [code, meaning] of EXIT_CODE_TABLE) out(context.io, `  ${String(code).padStart(3)}  ${meaning}`);
    return;
  }
  await exporter.list(
    EXIT_CODE_TABLE.map(([code, meaning]) => ({ code, meaning })),
    [
      { name: 'code', header: 'Code', value: (row) => row.code },
      { name: 'meaning', header: 'Meaning', value: (row) => row.meaning },
    ],
  );
}
