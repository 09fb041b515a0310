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
