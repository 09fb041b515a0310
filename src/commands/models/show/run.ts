// kct models show <id>: one model from GET /models, every field the server sent.
import { NotFoundError } from '../../../api/errors.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { out } from '../../../cli/core/io.js';
import { parseModelId } from '../../../cli/core/parse.js';
import { printModel } from '../../../cli/models/model-building.js';
import { printRows, resolveFormat } from '../../../cli/render/rows.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const id = parseModelId(options.id);
  const settings = await context.settings();
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
  const format = resolveFormat(options, settings.output);
  if (format === 'json') out(context.io, JSON.stringify(model, null, 2));
  else if (format === 'table') await printModel(context.io, model);
  else
    await printRows(
      context.io,
      format,
      [model],
      Object.keys(model).map((key) => ({ header: key, value: (m: Record<string, unknown>) => m[key] })),
    );
}
