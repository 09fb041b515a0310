// Checks of kct callbacks listen's own flag values, used by its declaration's `check:`.
import { UsageError } from '../../../api/errors.js';

/** Where verified callbacks are forwarded: an http(s) URL. */
export function parseForward(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--forward-to is not a URL: ${value}`, { suggestion: 'For example --forward-to http://127.0.0.1:3000/hooks/kct' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--forward-to must be an http or https URL, not ${url.protocol}`);
  return url;
}
