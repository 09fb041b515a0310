// kct callbacks verify: check a batch callback's Standard Webhooks signature, for receivers
// written as shell scripts or for debugging one. The secret comes from the environment or a
// file, never from an argument.
import { readFile } from 'node:fs/promises';
import { CredentialsError, UsageError } from '../../../api/errors.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { out } from '../../../cli/core/io.js';
import { readStdinText } from '../../../cli/core/stdin.js';
import { exporterFor } from '../../../cli/render/export.js';
import { webhookSecret } from '../webhook-secret.js';
import { verifyWebhook, webhookKey } from '../webhook-signature.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const secret = await webhookSecret(options.secretFile, context.env);
  for (const [flag, value] of [
    ['--id', options.id],
    ['--timestamp', options.timestamp],
    ['--signature', options.signature],
  ] as const) {
    if (!value) throw new UsageError(`${flag} is required (the webhook-${flag.slice(2)} header)`);
  }
  const body = options.body && options.body !== '-' ? await readFile(options.body, 'utf8') : await readStdinText(context.io);
  const headers = { 'webhook-id': options.id!, 'webhook-timestamp': options.timestamp!, 'webhook-signature': options.signature! };
  let payload: unknown;
  try {
    payload = verifyWebhook(webhookKey(secret), body, headers);
  } catch (error) {
    throw new CredentialsError(`the callback signature does not verify: ${(error as Error).message}`, {
      suggestion: 'Check the secret, and that the body is passed byte for byte as received; stale timestamps (over 5 minutes) are refused.',
    });
  }
  await (await exporterFor(options, context)).record({ valid: true, id: options.id, payload }, () =>
    out(context.io, `valid: callback ${options.id} is signed with this secret`),
  );
}
