// kct models create: validate the two preview files (line and field for every problem), show what
// will be created, confirm, POST /models, and with --wait poll until the model is ready.
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { err, out, safeText } from '../../../cli/core/io.js';
import { confirmCreate, describeModel, waitForModel } from '../../../cli/models/model-building.js';
import { buildModelRequest } from '../../../cli/models/preview-file.js';
import { exporterFor } from '../../../cli/render/export.js';
import { ModelWaitInterruptedError, ModelWaitTimeoutError, NOT_LISTED } from '../../../client/model-wait.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const plan = await buildModelRequest({
    questions: options.questions,
    rubrics: options.rubrics,
    name: options.name,
    desc: options.desc,
    subject: options.subject,
    totalScore: options.totalScore,
    cumMethod: options.cumMethod,
  });
  for (const warning of plan.warnings) context.notice('warning', warning);
  const exporter = await exporterFor(options, context);
  if (exporter.format === 'table') err(context.io, await describeModel(context.io, plan.request));
  if (!(await confirmCreate(context, options.yes))) {
    context.notice('info', 'Nothing was created.');
    return;
  }
  const client = await context.client();
  const created = await client.createModel(plan.request, { signal: context.signal });
  const id = String(created.model_id);
  context.notice('info', `Created model ${id} (${String(created.post_status ?? 'status unknown')}).`, { model_id: created.model_id });
  // One line that starts with the id, so a script can take it: id=$(kct models create ... --yes | cut -d' ' -f1)
  const print = (model: typeof created) =>
    exporter.record(model, () =>
      out(
        context.io,
        [id, String(model.post_status ?? 'unknown'), safeText(context.io, String(model.assignment_name ?? ''))].filter(Boolean).join('  '),
      ),
    );
  let model = created;
  if (options.wait && created.post_status !== 'ready') {
    try {
      model = await waitForModel(context, client, id, options);
    } catch (error) {
      // the model exists, still training: its line is printed when the wait ran out or was stopped, as kct status --watch prints its record
      if (error instanceof ModelWaitTimeoutError && error.status !== NOT_LISTED) await print({ ...created, post_status: error.status });
      else if (error instanceof ModelWaitTimeoutError || error instanceof ModelWaitInterruptedError) await print(created);
      throw error;
    }
  }
  await print(model);
  if (model.post_status === 'ready') context.notice('next', `Mark with it: kct one-pass <answer file> --model ${id}`);
  else if (!options.wait)
    context.notice('next', `It is ${String(model.post_status)} now; wait for it with: kct models show ${id} (or create with --wait)`);
}
