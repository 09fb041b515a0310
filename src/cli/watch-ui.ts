// Progress while watching: an ora spinner on a terminal, one plain line per change otherwise.
// Always on stderr, so stdout holds only results.
import type { StatusSnapshot } from '../api/schemas.js';
import { err, safeText, type IO } from './io.js';
import { describeSnapshot } from './render/snapshot.js';

export interface ProgressReporter {
  update(snapshot: StatusSnapshot, changed: boolean): void;
  warn(text: string): void;
  stop(): void;
}

export async function createProgressReporter(io: IO, label: (snapshot: StatusSnapshot) => string = (s) => s.task_id ?? ''): Promise<ProgressReporter> {
  // A terminal that reports no width (some pseudo-terminals) would send ora into an endless redraw.
  if (!io.stderrIsTTY || !((io.stderr as { columns?: number }).columns! > 0)) {
    return {
      update(snapshot, changed) {
        if (changed) err(io, `kct: ${label(snapshot)} ${safeText(io, describeSnapshot(snapshot), 'stderr')}`);
      },
      warn(text) {
        err(io, `kct: ${text}`);
      },
      stop() {},
    };
  }
  const { default: ora } = await import('ora');
  const spinner = ora({ stream: io.stderr, color: 'cyan', isEnabled: true, discardStdin: false });
  spinner.start('waiting for the first status');
  return {
    update(snapshot) {
      spinner.text = `${label(snapshot)} ${safeText(io, describeSnapshot(snapshot), 'stderr')}`;
    },
    warn(text) {
      spinner.warn(text);
      spinner.start();
    },
    stop() {
      spinner.stop();
    },
  };
}
