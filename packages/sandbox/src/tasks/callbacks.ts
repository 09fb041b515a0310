// Delivery of batch callbacks: signed the Standard Webhooks way, retried on a schedule, never to
// a private address, never following a redirect. Pending deliveries live in the database, so a
// restart resumes them (at least once, with the same webhook-id for a receiver to deduplicate).

import { Webhook } from 'standardwebhooks';
import type { Agent } from 'undici';
import { guardedAgent } from '../net/public-address.js';
import { nowIso } from '../store/db.js';
import type { Store } from '../store/store.js';

/** Delay before each attempt: at once, then seconds, minutes, hours (divided by timeScale). */
export const RETRY_SCHEDULE_MS = [0, 5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000];
const ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_PARALLEL = 4;
/** Re-check the table at least this often, in case a wake-up was missed. */
const IDLE_CHECK_MS = 60_000;

interface CallbackRow {
  webhook_id: string;
  url: string;
  payload: string;
  attempts: number;
}

export interface CallbackSenderOptions {
  secret: string;
  timeScale: number;
  allowPrivate: boolean;
  log?: (line: string) => void;
}

export class CallbackSender {
  private readonly webhook: Webhook;
  /** Made with the first delivery (guardedAgent loads undici then). */
  private agent: Promise<Agent> | undefined;
  private readonly inFlight = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly controller = new AbortController();
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly options: CallbackSenderOptions,
  ) {
    this.webhook = new Webhook(options.secret);
  }

  /** Looks for due deliveries now (call after a batch settles). */
  kick(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), 0);
  }

  private run(): void {
    this.timer = undefined;
    if (this.closed) return;
    const free = MAX_PARALLEL - this.inFlight.size;
    const due =
      free > 0
        ? (
            this.store
              .prepared(`SELECT webhook_id, url, payload, attempts FROM callbacks
      WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?`)
              .all(Date.now(), free + this.inFlight.size) as CallbackRow[]
          ).filter((r) => !this.inFlight.has(r.webhook_id))
        : [];
    for (const row of due.slice(0, free)) {
      this.inFlight.add(row.webhook_id);
      const attempt = this.attempt(row).finally(() => {
        this.inFlight.delete(row.webhook_id);
        this.pending.delete(attempt);
        this.kick();
      });
      this.pending.add(attempt);
    }
    this.scheduleNext();
  }

  private scheduleNext(): void {
    if (this.closed || this.timer) return;
    const next = this.store.prepared(`SELECT MIN(next_attempt_at) AS at FROM callbacks WHERE status = 'pending'`).get() as {
      at: number | null;
    };
    const wait = next.at === null ? IDLE_CHECK_MS : Math.min(IDLE_CHECK_MS, Math.max(0, next.at - Date.now()));
    this.timer = setTimeout(() => this.run(), wait);
    this.timer.unref();
  }

  private async attempt(row: CallbackRow): Promise<void> {
    const attemptNo = row.attempts + 1;
    let error: string | undefined;
    try {
      this.agent ??= guardedAgent({ allowPrivate: this.options.allowPrivate }, ATTEMPT_TIMEOUT_MS);
      const [dispatcher, { request }] = await Promise.all([this.agent, import('undici')]);
      const res = await request(row.url, {
        method: 'POST',
        dispatcher,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'kct-sandbox-webhooks/1',
          ...this.signatureHeaders(row),
        },
        body: row.payload,
        headersTimeout: ATTEMPT_TIMEOUT_MS,
        bodyTimeout: ATTEMPT_TIMEOUT_MS,
        signal: AbortSignal.any([this.controller.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]),
      });
      await res.body.dump();
      if (res.statusCode < 200 || res.statusCode >= 300) error = `the receiver answered HTTP ${res.statusCode}`;
    } catch (err) {
      if (this.closed) return;
      error = (err as Error).message || String(err);
    }
    if (this.closed) return;
    this.record(row, attemptNo, error);
  }

  /** Same webhook-id on every attempt; a fresh timestamp and signature each time. */
  private signatureHeaders(row: CallbackRow): Record<string, string> {
    const now = new Date();
    return {
      'webhook-id': row.webhook_id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': this.webhook.sign(row.webhook_id, now, row.payload),
    };
  }

  private record(row: CallbackRow, attemptNo: number, error: string | undefined): void {
    if (error === undefined) {
      this.store
        .prepared(`UPDATE callbacks SET status = 'delivered', attempts = ?, last_error = NULL, delivered_at = ? WHERE webhook_id = ?`)
        .run(attemptNo, nowIso(), row.webhook_id);
      return;
    }
    const delay = RETRY_SCHEDULE_MS[attemptNo];
    this.options.log?.(`callback ${row.webhook_id} attempt ${attemptNo} failed: ${error}`);
    if (delay === undefined) {
      this.store
        .prepared(`UPDATE callbacks SET status = 'failed', attempts = ?, last_error = ? WHERE webhook_id = ?`)
        .run(attemptNo, error, row.webhook_id);
    } else {
      this.store
        .prepared(`UPDATE callbacks SET attempts = ?, last_error = ?, next_attempt_at = ? WHERE webhook_id = ?`)
        .run(attemptNo, error, Date.now() + Math.round(delay / this.options.timeScale), row.webhook_id);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.controller.abort();
    await Promise.allSettled([...this.pending]);
    await this.agent?.then(
      (agent) => agent.close(),
      () => undefined,
    );
  }
}
