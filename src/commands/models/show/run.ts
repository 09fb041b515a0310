// kct models show <id>: one model from GET /models, every field the server sent.
import { NotFoundError } from '../../../api/errors.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { parseModelId } from '../../../cli/core/parse.js';
import { printModel } from '../../../cli/models/model-building.js';
import { exporterFor } from '../../../cli/render/export.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const id = parseModelId(options.id);
  const exporter = await exporterFor(options, context);
  const client = await context.client();
  const model = (await client.models({ signal: context.signal })).find((m) => String(m.model_id) === String(id));
  if (!model) {
    throw new NotFoundError(
      {
        status: 404,
        message: `model ${id} is not among the models this key can use`,
        method: 'GET',
        url: '/models',
        errorCode: 'model_not_found',
      },
      {
        suggestion: 'List them with `kct models`; an assignment id is not a model id.',
      },
    );
  }
  await exporter.record(model, () => printModel(context.io, model));
}
