// Checks of kct sandbox's own flag values, used by its declaration's `check:`.
import { UsageError } from '../../api/errors.js';

/** An http(s) origin: what upload URLs start with. */
export function parsePublicUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    !['http:', 'https:'].includes(url.protocol) ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    url.pathname !== '/'
  ) {
    throw new UsageError(`--public-url must be an http(s) origin such as https://sandbox.school.example, not "${value}"`, {
      suggestion: 'Give the scheme, host and port clients use to reach this sandbox, without a path.',
    });
  }
  return url.origin;
}

/** --rate-limit: requests a second per key, to the thousandth (0.5 is one every 2 s). */
export function parseRateLimit(value: string): number {
  const rate = Number(value);
  if (value.trim() === '' || !Number.isFinite(rate) || rate < 0.001) {
    throw new UsageError(`--rate-limit must be a number of requests a second, at least 0.001, not "${value}"`, {
      suggestion: 'For example --rate-limit 50 (each key: 50 requests a second), or --rate-limit 0.5 (one every 2 seconds).',
    });
  }
  return rate;
}
