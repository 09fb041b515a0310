// The secret batch callbacks are signed with: from --secret-file or KCT_WEBHOOK_SECRET, never
// from an argument (it would show in the process list).
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../api/errors.js';
import { fromEnv } from '../../cli/core/environment.js';

export async function webhookSecret(secretFile: string | undefined, env: NodeJS.ProcessEnv): Promise<string> {
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
  return secret;
}
