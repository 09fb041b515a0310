// `--cum-method` (or a manifest item's cum_method) that names the model's own method asks for the
// marking the model gives without it (spec 4.8: "default is the model's setting"): it is left out,
// so saying it never charges again what was marked without it. The models are read once, and only
// when some submission names a method; a list that cannot be read stops the run, as its
// submissions would stop, rather than change what every answer is.
import type { OnePassFields } from '../api/schemas.js';
import type { KctClient } from '../client/client.js';

export async function withoutModelsOwnMethod<Fields extends Pick<OnePassFields, 'model_id' | 'cum_method'>>(
  submissions: readonly Fields[],
  client: KctClient,
  signal: AbortSignal,
): Promise<Fields[]> {
  if (!submissions.some((fields) => fields.cum_method !== undefined)) return [...submissions];
  const methods = new Map((await client.models({ signal })).map((model) => [String(model.model_id), model.cum_method]));
  return submissions.map((fields) => {
    if (fields.cum_method === undefined || methods.get(String(fields.model_id)) !== fields.cum_method) return fields;
    const { cum_method: _same, ...rest } = fields;
    return rest as Fields;
  });
}
