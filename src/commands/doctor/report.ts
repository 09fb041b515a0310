// How kct doctor shows its checks: one plain line per check as it finishes (piped, CI logs), a
// table once all have run (terminal, with a spinner meanwhile), or a machine format through the
// exporter once all have run (json: one document with ok and exit_code beside the checks).
import type { Context } from '../../cli/core/context.js';
import { exitCodeFor } from '../../cli/core/exit-codes.js';
import { type IO, out } from '../../cli/core/io.js';
import { startSpinner } from '../../cli/core/watch.js';
import type { Exporter } from '../../cli/render/export.js';
import { type Column, renderRows } from '../../cli/render/rows.js';
import { paint } from '../../cli/render/style.js';

type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  /** Stable id for scripts: config, key, base_url, access, models, mark. */
  name: string;
  /** What a person reads. */
  label: string;
  status: CheckStatus;
  detail: string;
  ms?: number;
  data?: Record<string, unknown>;
  error?: unknown;
}

export interface DoctorReport {
  add(result: CheckResult): void;
  finish(results: CheckResult[]): Promise<void>;
}

/** The checks in every format: csv and the table these columns, json one document, ndjson a line a check. */
const CHECK_COLUMNS: Column<CheckResult>[] = [
  { name: 'name', header: 'Check', value: (r) => r.name, show: (r) => r.label },
  { name: 'status', header: 'Result', value: (r) => r.status, paint: (text, io) => colour(io, text as CheckStatus) },
  { name: 'detail', header: 'Detail', value: (r) => r.detail, wrap: true },
  { name: 'ms', header: 'ms', value: (r) => r.ms ?? null },
];

function colour(io: IO, status: CheckStatus): string {
  const c = paint(io);
  return status === 'ok' ? c.green(status) : status === 'warn' ? c.yellow(status) : status === 'fail' ? c.red(status) : c.dim(status);
}

/** A check as scripts read it: its name, label, status, detail and time, and what it found. */
function checkRecord({ name, label, status, detail, ms, data }: CheckResult): Record<string, unknown> {
  return { name, label, status, detail, ...(ms === undefined ? {} : { ms }), ...data };
}

export async function printDoctorReport(context: Context, exporter: Exporter): Promise<DoctorReport> {
  const { io } = context;
  if (exporter.format !== 'table') {
    return {
      add() {},
      async finish(results) {
        const failed = results.find((result) => result.status === 'fail');
        await exporter.list(results, CHECK_COLUMNS, {
          record: checkRecord,
          document: (checks) => ({ ok: failed === undefined, exit_code: failed ? exitCodeFor(failed.error) : 0, checks }),
        });
      },
    };
  }
  if (!io.stdoutIsTTY) {
    // piped (a CI log): a line a check as it finishes, so a check that hangs shows where
    return {
      add(result) {
        out(io, `${result.status.padEnd(4)}  ${result.label.padEnd(14)}  ${result.detail}`);
      },
      async finish() {},
    };
  }
  const spinner = await startSpinner(io, 'checking the configuration');
  return {
    add(result) {
      spinner?.text(`${result.label}: ${result.status}`);
    },
    async finish(results) {
      spinner?.stop();
      out(io, await renderRows(io, results, CHECK_COLUMNS.slice(0, 3), { lines: true }));
    },
  };
}
