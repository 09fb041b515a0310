// A request rate per API key, as a real service has one (`kct sandbox --rate-limit <n>`,
// docs/sandbox.md "Rate limit"): a token bucket per key, n tokens a second, holding at most one
// second's worth (at least one token). A request takes a token or is refused with the whole
// seconds until one is there (Retry-After). Kept in whole milliseconds and whole millionths of a
// token, so that a Retry-After is never a rounding short: a request made after it is admitted.

/** One request, in millionths of a token. */
const TOKEN = 1_000_000;
/**
 * When this many buckets are kept, the full ones (the same as none) are dropped. Only valid keys
 * get a bucket (at most 100 active per account), so the map stays far below it.
 */
const SWEEP_AT = 10_000;

interface Bucket {
  /** Millionths of a token held at `at`. */
  units: number;
  /** Whole milliseconds of the clock. */
  at: number;
}

export interface TokenBucketOptions {
  /** Milliseconds of a monotonic clock (default: performance.now()). */
  clock?: () => number;
}

export class TokenBuckets {
  /** Tokens a bucket holds when full: one second of requests, at least one. */
  readonly burst: number;
  /** The rate actually enforced, in requests a second (the one asked for, to the thousandth). */
  readonly rate: number;
  private readonly unitsPerMs: number;
  private readonly capacity: number;
  private readonly buckets = new Map<string | number, Bucket>();
  private readonly clock: () => number;

  constructor(requestsPerSecond: number, options: TokenBucketOptions = {}) {
    if (!Number.isFinite(requestsPerSecond) || requestsPerSecond < 0.001)
      throw new RangeError('rateLimit must be a number of requests a second, at least 0.001');
    // n tokens a second is n/1000 a millisecond: n * 1000 millionths of a token
    this.unitsPerMs = Math.round(requestsPerSecond * 1000);
    this.rate = this.unitsPerMs / 1000;
    this.burst = Math.max(1, Math.ceil(this.rate));
    this.capacity = this.burst * TOKEN;
    this.clock = options.clock ?? (() => performance.now());
  }

  /**
   * Takes a token of `key`'s bucket: 0 when the request is admitted, else the whole seconds
   * (at least 1) after which a request of this key is admitted, if none is made meanwhile.
   */
  take(key: string | number): number {
    const now = Math.floor(this.clock());
    const bucket = this.buckets.get(key) ?? this.newBucket(key, now);
    // the clock never goes back; should it, no time has passed
    const elapsed = Math.max(0, now - bucket.at);
    bucket.units = Math.min(this.capacity, bucket.units + elapsed * this.unitsPerMs);
    bucket.at = now;
    if (bucket.units >= TOKEN) {
      bucket.units -= TOKEN;
      return 0;
    }
    const waitMs = Math.ceil((TOKEN - bucket.units) / this.unitsPerMs);
    return Math.max(1, Math.ceil(waitMs / 1000));
  }

  private newBucket(key: string | number, now: number): Bucket {
    if (this.buckets.size >= SWEEP_AT) this.forgetFull(now);
    const bucket = { units: this.capacity, at: now };
    this.buckets.set(key, bucket);
    return bucket;
  }

  private forgetFull(now: number): void {
    for (const [key, bucket] of this.buckets)
      if (bucket.units + Math.max(0, now - bucket.at) * this.unitsPerMs >= this.capacity) this.buckets.delete(key);
  }
}
