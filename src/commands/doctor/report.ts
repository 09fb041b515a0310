// How kct doctor shows its checks: one plain line per check as it finishes (piped, CI logs), a
// table once all have run (terminal, with a spinner meanwhile), or one JSON document (--json).
import type { Context } from '../../cli/core/context.js';
import { exitCodeFor } from '../../cli/core/exit-codes.js';
import { out } from '../../cli/core/io.js';
import { startSpinner } from '../../cli/core/watch.js';
import { renderTable } from '../../cli/render/rows.js';
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

export async function printDoctorReport(context: Context, json: boolean): Promise<DoctorReport> {
  const { io } = context;
  if (json) {
    return {
      add() {},
      async finish(results) {
        const failed = results.find((result) => result.status === 'fail');
        out(
          io,
          JSON.stringify(
            {
              ok: failed === undefined,
              exit_code: failed ? exitCodeFor(failed.error) : 0,
              checks: results.map(({ name, label, status, detail, ms, data }) => ({
                name,
                label,
                status,
                detail,
                ...(ms === undefined ? {} : { ms }),
                ...data,
              })),
            },
            null,
            2,
          ),
        );
      },
    };
  }
  const colour = (status: CheckStatus) => {
    const c = paint(io);
    return status === 'ok' ? c.green(status) : status === 'warn' ? c.yellow(status) : status === 'fail' ? c.red(status) : c.dim(status);
  };
  if (!io.stdoutIsTTY) {
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
      out(
        io,
        await renderTable(
          io,
          ['Check', 'Result', 'Detail'],
          results.map((result) => [result.label, colour(result.status), result.detail]),
          [false, false, true],
        ),
      );
    },
  };
}
