// Which keys kct sends: Public Evaluation API keys only (spec 5), each alone, checked before any request.
import { CredentialsError } from '../api/errors.js';
import { keysIn, maskKey } from './redact.js';

/** Throws unless the key is a Public Evaluation API key (spec 5: never send other providers' keys). */
export function assertSendableKey(key: string | undefined): asserts key is string {
  if (!key) {
    throw new CredentialsError('no API key', {
      suggestion: 'Pass apiKey: a Public Evaluation API key, which begins with kct_.',
    });
  }
  // a line copied whole ("user   kct_sbx_…" from kct sandbox, KCT_API_KEY=kct_…): the key is there, among other words
  const keys = keysIn(key);
  if (keys.length > 1 || (keys.length === 1 && !key.startsWith(keys[0]))) {
    throw new CredentialsError(
      keys.length === 1
        ? `the text given as the API key holds a key (${maskKey(keys[0])}) among other words`
        : `the text given as the API key holds ${keys.length} keys (${keys.map(maskKey).join(', ')}) among other words`,
      // "kct_sbx_…" would itself read as a key and be redacted where kct prints errors
      { suggestion: 'Paste only the key, the word that begins with kct_, not the account name or anything else on its line.' },
    );
  }
  if (!key.startsWith('kct_')) {
    throw new CredentialsError(
      'refusing to send an API key that does not begin with kct_: only Public Evaluation API keys are sent, never keys of third-party model providers (spec section 5)',
      { suggestion: 'Create a key in the product under public_api/keys and use that one.' },
    );
  }
  if (/\s/.test(key))
    throw new CredentialsError('the API key contains white space', { suggestion: 'Copy the key again without spaces or line breaks.' });
}
