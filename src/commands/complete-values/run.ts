// kct __complete model-ids: what the completion scripts call for model ids, one per line as
// "<id>\t<name> (<status>)", ready models first. Silent on any failure: Tab must never print errors.

import { type CachedModel, modelCacheFile, readModelCache, writeModelCache } from '../../cli/completion/model-cache.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { outRaw } from '../../cli/core/io.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

/** Tab waits for this long at most when the cache is cold. */
const FETCH_LIMIT_MS = 3000;

export async function run(options: Options, context: Context): Promise<void> {
  if (options.kind !== 'model-ids') return;
  try {
    const settings = await context.settings();
    const baseUrl = settings.baseUrl.value;
    const apiKey = settings.apiKey.value;
    if (!baseUrl || !apiKey) return;
    const file = modelCacheFile(context.env, baseUrl, apiKey);
    let models = readModelCache(file);
    if (!models) {
      const client = await context.client();
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(FETCH_LIMIT_MS)]);
      models = (await client.models({ signal })).map(
        (model): CachedModel => ({
          id: String(model.model_id),
          name: oneLine(model.assignment_name ?? ''),
          status: oneLine(model.post_status ?? ''),
        }),
      );
      models.sort((a, b) => Number(b.status === 'ready') - Number(a.status === 'ready'));
      writeModelCache(file, models);
    }
    outRaw(context.io, models.map((model) => `${model.id}\t${model.name}${model.status ? ` (${model.status})` : ''}\n`).join(''));
  } catch {
    // no completion rather than an error in the middle of a command line
  }
}

function oneLine(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ').trim();
}
