// Watching tasks from a command: the shared poller, the progress display (an ora spinner on a
// terminal, one plain line per change otherwise, always on stderr so stdout holds only results)
// and the Ctrl-C / timeout messages that tell the user how to pick up again.
import {
  AuthenticationError,
  ConnectionError,
  InsufficientCreditsError,
  InterruptedError,
  PermissionError,
  ServerStoppedAnsweringError,
} from '../../api/errors.js';
import type { StatusSnapshot } from '../../api/schemas.js';
import type { KctClient } from '../../client/client.js';
import { pollSchedule } from '../../client/poll.js';
import { describeSnapshot } from '../render/snapshot.js';
import type { Context } from './context.js';
import { fromEnv } from './environment.js';
import { type IO, notice } from './io.js';
import { stripControls } from './sanitize.js';

/** --timeout and --poll-interval, checked where they are declared (cli/core/options.ts watchOptions), in milliseconds. */
export interface WatchFlags {
  timeout: number;
  pollInterval?: number;
}

/** --timeout and the first interval: --poll-interval, else KCT_POLL_INTERVAL (each error names where the bad value came from). */
export function watchTimings(flags: WatchFlags, env: NodeJS.ProcessEnv): { timeoutMs: number; startMs?: number } {
  return { timeoutMs: flags.timeout, startMs: flags.pollInterval ?? fromEnv(env, 'KCT_POLL_INTERVAL') };
}

export async function watchWithProgress(
  context: Context,
  client: KctClient,
  taskIds: string[],
  flags: WatchFlags,
  /** Filled with each task's latest snapshot as it comes: what a watch that ran out ended on. */
  latest?: Map<string, StatusSnapshot>,
): Promise<Map<string, StatusSnapshot>> {
  const { timeoutMs, startMs } = watchTimings(flags, context.env);
  const reporter = await createProgressReporter(context.io);
  try {
    return await client.watch(taskIds, {
      timeoutMs,
      schedule: pollSchedule(startMs),
      signal: context.signal,
      onUpdate: (snapshot, changed) => {
        latest?.set(snapshot.task_id ?? taskIds[0], snapshot);
        reporter.update(snapshot, changed);
      },
      onTransientError: (id, error) => reporter.warn(`${id}: ${error.message}; still watching`),
    });
  } catch (error) {
    if (error instanceof InterruptedError) {
      throw new InterruptedError(`stopped watching ${taskIds.join(', ')}`, {
        suggestion: `The task keeps running on the server. Resume with: kct status ${taskIds[0]} --watch`,
      });
    }
    throw withResumeHint(error, `kct status ${taskIds[0]} --watch`);
  } finally {
    reporter.stop();
  }
}

/** What stopped a run after tasks were accepted (a server gone, a key refused, credits out), with what to run then (its exit code unchanged). */
export function withResumeHint(error: unknown, resume: string): unknown {
  // a key refused, or credits run out, after tasks were accepted: they keep running, and are charged
  const accepted = `then ${resume} collects the tasks already accepted, which keep running and are charged when they succeed`;
  if (error instanceof AuthenticationError || error instanceof PermissionError)
    return error.retold(error.message, {
      cause: error.cause,
      suggestion: `Store a working key (\`kct auth status\` says which key kct uses; \`kct auth login\` stores one), ${accepted}.`,
    });
  if (error instanceof InsufficientCreditsError)
    return error.retold(error.message, { cause: error.cause, suggestion: `Add credits (\`kct credits\` shows the balance), ${accepted}.` });
  if (!(error instanceof ConnectionError)) return error;
  const suggestion = `Check that the server is running (a local sandbox: is \`kct sandbox\` still up?), then resume with: ${resume}`;
  return error instanceof ServerStoppedAnsweringError
    ? new ServerStoppedAnsweringError(error.taskIds, error.cause as ConnectionError, {
        suggestion: error.reached ? suggestion : error.suggestion,
        reached: error.reached,
      })
    : new ConnectionError(error.message, error.maybeDelivered, { cause: error.cause, suggestion });
}

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

/** A spinner on stderr, or undefined when stderr cannot animate (not a TTY, or no width) or speaks JSON (--json). */
export async function startSpinner(io: IO, initial: string): Promise<Spinner | undefined> {
  if (!io.canAnimate || io.stderrJson) return undefined;
  const { default: ora } = await import('ora');
  const spinner = ora({ stream: io.stderr, color: io.stderrColor ? 'cyan' : false, isEnabled: true, discardStdin: false }).start(
    stripControls(initial),
  );
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

export async function createProgressReporter(
  io: IO,
  label: (snapshot: StatusSnapshot) => string = (s) => s.task_id ?? '',
): Promise<ProgressReporter> {
  const spinner = await startSpinner(io, 'waiting for the first status');
  const line = (snapshot: StatusSnapshot) => `${label(snapshot)} ${describeSnapshot(snapshot)}`;
  if (!spinner) {
    return {
      update(snapshot, changed) {
        if (changed) notice(io, 'progress', line(snapshot));
      },
      warn(text) {
        notice(io, 'progress', text);
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
