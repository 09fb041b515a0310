// Progress while watching: an ora spinner on a terminal, one plain line per change otherwise.
// Always on stderr, so stdout holds only results.
import type { StatusSnapshot } from '../api/schemas.js';
import { err, type IO } from './io.js';
import { describeSnapshot } from './render/snapshot.js';
import { stripControls } from './sanitize.js';

export interface ProgressReporter {
  update(snapshot: StatusSnapshot, changed: boolean): void;
  warn(text: string): void;
  stop(): void;
}

export interface Spinner {
  text(value: string): void;
  warn(value: string): void;
  stop(): void;
}

/** A spinner on stderr, or undefined when stderr cannot animate (not a TTY, or no width). */
export async function startSpinner(io: IO, initial: string): Promise<Spinner | undefined> {
  if (!io.canAnimate) return undefined;
  const { default: ora } = await import('ora');
  const spinner = ora({ stream: io.stderr, color: 'cyan', isEnabled: true, discardStdin: false }).start(stripControls(initial));
  return {
    text(value) {
      spinner.text = stripControls(value);
    },
    warn(value) {
      const current = spinner.text;
      spinner.warn(stripControls(value));
      spinner.start(current);
    },
    stop() {
      spinner.stop();
    },
  };
}

export async function createProgressReporter(io: IO, label: (snapshot: StatusSnapshot) => string = (s) => s.task_id ?? ''): Promise<ProgressReporter> {
  const spinner = await startSpinner(io, 'waiting for the first status');
  const line = (snapshot: StatusSnapshot) => `${label(snapshot)} ${describeSnapshot(snapshot)}`;
  if (!spinner) {
    return {
      update(snapshot, changed) {
        if (changed) err(io, `kct: ${line(snapshot)}`);
      },
      warn(text) {
        err(io, `kct: ${text}`);
      },
      stop() {},
    };
  }
  return {
    update: (snapshot) => spinner.text(line(snapshot)),
    warn: (text) => spinner.warn(text),
    stop: () => spinner.stop(),
  };
}
