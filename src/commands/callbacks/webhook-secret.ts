// The key batch callbacks are signed with: its secret from --secret-file or KCT_WEBHOOK_SECRET,
// never from an argument (it would show in the process list). A secret missing or unusable is bad
// input (exit 2) for `callbacks listen` and `callbacks verify` alike: no signature was checked.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../api/errors.js';
import { fromEnv } from '../../cli/core/environment.js';
import { webhookKey } from './webhook-signature.js';

export async function webhookSecretKey(secretFile: string | undefined, env: NodeJS.ProcessEnv): Promise<Buffer> {
  let secret = fromEnv(env, 'KCT_WEBHOOK_SECRET');
  if (secretFile !== undefined) {
    try {
      secret = (await readFile(secretFile, 'utf8')).trim();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        `--secret-file ${secretFile}: ${code === 'ENOENT' ? 'file not found' : `cannot read it (${code ?? String(error)})`}`,
      );
    }
  }
  if (!secret)
    throw new UsageError('no webhook secret', {
      suggestion: 'Set KCT_WEBHOOK_SECRET or pass --secret-file <file> (the sandbox prints its secret at start).',
    });
  try {
    return webhookKey(secret);
  } catch (error) {
    throw new UsageError(`the webhook secret is not usable: ${(error as Error).message}`, {
      suggestion: 'Use the whsec_... secret the service (or `kct sandbox`) printed.',
    });
  }
}
