// kct callbacks verify: check a batch callback's Standard Webhooks signature, for receivers
// written as shell scripts or for debugging one. The secret comes from the environment or a
// file, never from an argument. The signature is checked over the body's bytes first; a body
// signed correctly that is not JSON is the sender's fault, said apart from a forgery (exit 1, not 4).
import { readFile } from 'node:fs/promises';
import { CredentialsError, KctError, UsageError } from '../../../api/errors.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { out } from '../../../cli/core/io.js';
import { readStdinBytes } from '../../../cli/core/stdin.js';
import { exporterFor } from '../../../cli/render/export.js';
import { webhookSecretKey } from '../webhook-secret.js';
import { verifyWebhook, webhookEvent } from '../webhook-signature.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const key = await webhookSecretKey(options.secretFile, context.env);
  for (const [flag, value] of [
    ['--id', options.id],
    ['--timestamp', options.timestamp],
    ['--signature', options.signature],
  ] as const) {
    if (!value) throw new UsageError(`${flag} is required (the webhook-${flag.slice(2)} header)`);
  }
  const body = options.body && options.body !== '-' ? await readFile(options.body) : await readStdinBytes(context.io, 'the body');
  const headers = { 'webhook-id': options.id!, 'webhook-timestamp': options.timestamp!, 'webhook-signature': options.signature! };
  try {
    verifyWebhook(key, body, headers);
  } catch (error) {
    throw new CredentialsError(`the callback signature does not verify: ${(error as Error).message}`, {
      suggestion: 'Check the secret, and that the body is passed byte for byte as received; stale timestamps (over 5 minutes) are refused.',
    });
  }
  let payload: unknown;
  let payloadError: string | undefined;
  try {
    payload = webhookEvent(body);
  } catch (error) {
    payloadError = (error as Error).message;
  }
  await (await exporterFor(options, context)).record(
    { valid: true, id: options.id, payload, ...(payloadError ? { payload_error: payloadError } : {}) },
    () => out(context.io, `valid: callback ${options.id} is signed with this secret`),
  );
  if (payloadError)
    throw new KctError('not_json', `callback ${options.id} is signed with this secret, but ${payloadError}`, {
      suggestion: 'The signature is right, so the sender sent this body as it is: a batch callback is a JSON event; ask its sender.',
    });
}
