// kct batch's own checks of what it sends, and the service's refusals of a batch told in the
// user's terms (what to change), where the service's words alone do not say it.
import { ApiError, refusalOf, UsageError } from '../../api/errors.js';
import { isLocalCallback } from '../../cli/core/loopback.js';
import type { KeyRule } from '../../client/idempotency.js';

/** https, as spec 4.9 asks; or plain http to this machine when the API is a local sandbox (loopback.ts). */
export function checkCallbackUrl(value: string, baseUrl?: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--callback-url is not a URL: ${value}`, {
      suggestion: 'Give a public https URL, e.g. --callback-url https://example.org/kct-callback',
    });
  }
  if (url.protocol !== 'https:' && !isLocalCallback(url, baseUrl)) {
    throw new UsageError('--callback-url must be an https URL (spec 4.9: a public HTTPS URL)', {
      suggestion:
        'To try callbacks locally: a sandbox on 127.0.0.1 started with --allow-private-callbacks accepts http://127.0.0.1:<port>/ (see `kct callbacks listen`).',
    });
  }
  return url.href;
}

/**
 * A refusal of a batch request, with what to do: a local sandbox refusing a loopback callback was
 * started without --allow-private-callbacks; a 409 on a key of the user's (--idempotency-key) means
 * items under the same names changed since that key was sent.
 */
export function toldRefusal(error: unknown, callbackUrl: string | undefined, rule: KeyRule): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.errorCode === 'invalid_callback_url' && callbackUrl !== undefined)
    return error.retold(error.message, {
      suggestion:
        new URL(callbackUrl).protocol === 'http:'
          ? 'Start the sandbox with --allow-private-callbacks to let it call a receiver on this machine.'
          : // a name that does not resolve, or resolves to a private address: the service cannot reach it
            'Give an https URL whose host the service can reach on the internet. To try callbacks on this machine, start the sandbox with --allow-private-callbacks and receive them with `kct callbacks listen` (its --callback-url http://127.0.0.1:<port>/).',
    });
  if (refusalOf(error) === 'idempotency_key_reused' && rule.kind === 'base')
    return error.retold(
      `items of this manifest changed since they were sent with --idempotency-key ${rule.base} (its requests are keyed by the items' names, not their content): the service refused the changed batch (${error.message})`,
      {
        suggestion: `To mark the new versions, run again with a new --idempotency-key (e.g. ${rule.base}-v2), or without one (keys are then derived from each request's content). To keep the first marks, restore the manifest.`,
      },
    );
  return error;
}
