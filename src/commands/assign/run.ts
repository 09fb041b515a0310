// kct assign: create a student assignment from a ready model (POST /assignments).
import { UsageError } from '../../api/errors.js';
import type { AssignmentRequest } from '../../api/schemas.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { out } from '../../cli/core/io.js';
import { parseModelId } from '../../cli/core/parse.js';
import { exporterFor } from '../../cli/render/export.js';
import type { command } from './command.js';
import { localAndUtc } from './dates.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const settings = await context.settings({ model: options.model });
  const { deadline, start } = options;
  if (start !== undefined && start >= deadline)
    throw new UsageError(`--start (${start}) must be before --deadline (${deadline})`, {
      suggestion:
        'Give a --start before the deadline, a later --deadline, or no --start. A date alone is the start of that day for --start and its end for --deadline.',
    });
  const request: AssignmentRequest = {
    model_id: parseModelId(settings.model.value, settings.model.source),
    assignment_name: options.name,
    assignment_desc: options.desc,
    deadline_time: deadline,
    expected_number: options.expected,
    ...(options.subject ? { project_subject: options.subject } : {}),
    ...(start ? { start_time: start } : {}),
    ...(options.fileType ? { file_type: options.fileType } : {}),
  };
  if (Date.parse(deadline) < Date.now()) context.notice('note', `the deadline ${localAndUtc(deadline)} is in the past`);
  const exporter = await exporterFor(options, context);
  const client = await context.client();
  const assignment = await client.createAssignment(request, { signal: context.signal });
  await exporter.record(assignment, () => {
    out(
      context.io,
      `Created assignment ${String(assignment.assignment_id)} (${assignment.status ?? 'active'}) from model ${String(assignment.model_id ?? request.model_id)}.`,
    );
    // the API takes UTC; a teacher thinks in local time: both, so neither surprises
    out(context.io, `Deadline: ${localAndUtc(deadline)}`);
    if (start) out(context.io, `Start:    ${localAndUtc(start)}`);
    out(context.io, `Submit answers with: kct evaluate --assignment ${String(assignment.assignment_id)} <file>`);
  });
}
