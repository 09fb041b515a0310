import type { Context } from './context.js';
import { EXIT_CODE_TABLE } from './exit-codes.js';
import { out } from './io.js';

export function printExitCodes(context: Context): void {
  if (context.globals.json) {
    out(context.io, JSON.stringify(EXIT_CODE_TABLE.map(([code, meaning]) => ({ code, meaning }))));
    return;
  }
  out(context.io, 'Exit codes (the same for every command):');
  for (const [code, meaning] of EXIT_CODE_TABLE) out(context.io, `  ${String(code).padStart(3)}  ${meaning}`);
}
