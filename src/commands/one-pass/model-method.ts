// `--cum-method` that names the model's own method asks for the marking the model gives without it
// (spec 4.8: "default is the model's setting"): it is left out, so saying it never charges again
// what a run without it marked. The model's method is read only when the flag is given.
import type { OnePassFields } from '../../api/schemas.js';
import type { KctClient } from '../../client/client.js';

export async function withoutModelsOwnMethod(fields: OnePassFields, client: KctClient, signal: AbortSignal): Promise<OnePassFields> {
  if (fields.cum_method === undefined) return fields;
  // a list that cannot be read leaves the flag as given: the answers' own requests say what is wrong
  const models = await client.models({ signal }).catch(() => []);
  const own = models.find((model) => String(model.model_id) === String(fields.model_id))?.cum_method;
  if (own !== fields.cum_method) return fields;
  const { cum_method: _same, ...rest } = fields;
  return rest;
}
