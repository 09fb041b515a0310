// kct doctor: the CI smoke check. Checks run in order (configuration, key, base URL, access,
// models, and with --mark a real marking); a check whose prerequisite failed is skipped, every
// check prints one line, and the exit code is the usual one for the first check that failed.
import { randomUUID } from 'node:crypto';
import { ConflictError, KctError, NotFoundError, TaskUnsuccessfulError, UsageError } from '../../api/errors.js';
import type { Model } from '../../api/schemas.js';
import { isMarked, isUnsuccessfulFinal, statusOf } from '../../api/status.js';
import { describeOwner, keyOwner } from '../../cli/core/account.js';
import { probeApi } from '../../cli/core/api-probe.js';
import { type Context, missingProfileError, profileMissing } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { fromEnv } from '../../cli/core/environment.js';
import { parseModelId } from '../../cli/core/parse.js';
import type { ResolvedSettings } from '../../cli/core/settings.js';
import { createExporter, exporterFor } from '../../cli/render/export.js';
import { resolveFormat } from '../../cli/render/format.js';
import { formatNumber } from '../../cli/render/style.js';
import type { KctClient } from '../../client/client.js';
import { pollSchedule } from '../../client/poll.js';
import { maskKey } from '../../client/redact.js';
import { assertSendableKey } from '../../client/sendable-key.js';
import type { command } from './command.js';
import { type CheckResult, printDoctorReport } from './report.js';
import { SAMPLE_ANSWER, SAMPLE_QUESTION } from './sample.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  // flag mistakes are usage errors (their declared checks) before any check runs
  const { mark: markModel, timeout: timeoutMs } = options;
  const startMs = fromEnv(context.env, 'KCT_POLL_INTERVAL');

  const results: CheckResult[] = [];
  // a config file or KCT_OUTPUT that cannot be read is the configuration check's to report: meanwhile the flags decide
  const exporter = await exporterFor(options, context).catch(() => createExporter(context.io, resolveFormat(options)));
  const report = await printDoctorReport(context, exporter);
  const record = (result: CheckResult) => {
    results.push(result);
    report.add(result);
  };
  const check = async (
    name: string,
    label: string,
    ready: boolean,
    body: () => Promise<Omit<CheckResult, 'name' | 'label' | 'ms'>>,
  ): Promise<boolean> => {
    if (!ready) {
      record({ name, label, status: 'skip', detail: 'skipped: an earlier check failed' });
      return false;
    }
    const started = performance.now();
    try {
      const outcome = await body();
      record({ name, label, ms: Math.round(performance.now() - started), ...outcome });
      return outcome.status !== 'fail';
    } catch (error) {
      if (context.signal.aborted) throw error;
      record({ name, label, status: 'fail', ms: Math.round(performance.now() - started), detail: (error as Error).message, error });
      return false;
    }
  };

  let settings: ResolvedSettings | undefined;
  const configOk = await check('config', 'configuration', true, async () => {
    settings = await context.settings();
    if (profileMissing(settings)) throw missingProfileError(settings);
    resolveFormat({}, settings.output); // a configured output that is not a format
    return { status: 'ok', detail: describeSettings(settings), data: { profile: settings.profile, sources: sources(settings) } };
  });
  const keyOk = await check('key', 'API key', configOk, async () => {
    const key = settings!.apiKey.value;
    assertSendableKey(key);
    return {
      status: 'ok',
      detail: `${maskKey(key)} from ${settings!.apiKey.source}`,
      data: { key: maskKey(key), source: settings!.apiKey.source },
    };
  });
  const baseOk = await check('base_url', 'base URL', configOk, async () => probeBaseUrl(settings!, context));
  let client: KctClient | undefined;
  const accessOk = await check('access', 'key accepted', keyOk && baseOk, async () => {
    client = await context.client();
    const credits = await client.credits({ signal: context.signal });
    const owner = keyOwner(credits);
    const available = typeof credits.available === 'number' ? credits.available : credits.credits;
    return {
      status: available > 0 ? 'ok' : 'warn',
      detail: `${formatNumber(credits.credits)} credits${available > 0 ? '' : ' (none available: marking will be refused with 402)'}; ${describeOwner(owner)}`,
      data: { credits: credits.credits, ...owner },
    };
  });
  const modelsOk = await check('models', 'models', accessOk, async () => {
    const models = await client!.models({ signal: context.signal });
    const ready = models.filter((model) => model.post_status === 'ready').length;
    // the model the check marks with (--mark's), else the one a plain `kct one-pass` would use, must be
    // there and ready, or the smoke check lies
    const named = markModel === undefined ? undefined : { value: String(markModel), source: '--mark' };
    const used = modelToUse(models, named ?? settings!.model, named ? 'the model' : 'the default model');
    const said = used && (named ? `; model ${used.id} (--mark) is ready` : `; the default model ${used.id} is ready`);
    // beside --mark's, a default model a plain run could not use is a warning: the run names its own
    const aside =
      named && settings!.model.value !== undefined ? unusable(() => modelToUse(models, settings!.model, 'the default model')) : undefined;
    return {
      status: ready > 0 && aside === undefined ? 'ok' : 'warn',
      detail: `${models.length} model${models.length === 1 ? '' : 's'} visible, ${ready} ready${ready > 0 ? '' : ' (nothing can be marked yet: see kct models create)'}${said ?? ''}${aside ? `; but ${aside}` : ''}`,
      data: { models: models.length, ready, ...(used ? { [named ? 'mark_model' : 'default_model']: used.id } : {}) },
    };
  });
  if (markModel !== undefined) {
    await check('mark', `mark (model ${markModel})`, modelsOk, async () => markSample(client!, markModel, timeoutMs, startMs, context));
  }
  await report.finish(results);
  const failed = results.find((result) => result.status === 'fail');
  if (failed) throw failed.error instanceof Error ? failed.error : new KctError('doctor', `the ${failed.label} check failed`);
}

/**
 * The model a marking would use (--mark's, else the default: KCT_MODEL or `kct config set model`),
 * when one is set: refused as a marking would be, not found (exit 6) or not ready (exit 7), with
 * where it was set.
 */
function modelToUse(
  models: readonly Model[],
  setting: { value?: string; source?: string },
  what: 'the model' | 'the default model',
): { id: number } | undefined {
  if (setting.value === undefined) return undefined;
  const id = parseModelId(setting.value, setting.source);
  const model = models.find((m) => String(m.model_id) === String(id));
  const fix =
    what === 'the model'
      ? 'Choose a ready one from `kct models` for --mark.'
      : 'Choose a ready one from `kct models` and set it with kct config set model <id> (or KCT_MODEL).';
  if (!model) {
    throw new NotFoundError(
      {
        status: 404,
        message: `${what} ${id} (from ${setting.source}) is not among the models this key can use`,
        method: 'GET',
        url: '/models',
        errorCode: 'model_not_found',
      },
      { suggestion: fix },
    );
  }
  if (model.post_status !== 'ready') {
    throw new ConflictError(
      {
        status: 409,
        message: `${what} ${id} (from ${setting.source}) is ${model.post_status ?? 'not ready'}, not ready to mark`,
        method: 'GET',
        url: '/models',
        errorCode: 'model_not_ready',
      },
      { suggestion: `It can mark once training ends (kct models show ${id} says when). Meanwhile: ${fix}` },
    );
  }
  return { id };
}

/** Why a check would fail, or undefined when it passes. */
function unusable(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function sources(settings: ResolvedSettings): Record<string, string | null> {
  return {
    profile: settings.profileSource,
    api_key: settings.apiKey.source ?? null,
    base_url: settings.baseUrl.source ?? null,
    model: settings.model.source ?? null,
    output: settings.output.source ?? null,
  };
}

function describeSettings(settings: ResolvedSettings): string {
  const from = (name: string, setting: { value?: string; source?: string }) =>
    `${name} ${setting.source ? `from ${setting.source}` : 'unset'}`;
  return [
    `profile "${settings.profile}" (${settings.profileSource})`,
    from('key', settings.apiKey),
    from('base URL', settings.baseUrl),
    from('model', settings.model),
    from('output', settings.output),
  ].join('; ');
}

/** The base URL's check: it is set, and it answers like the API (api-probe.ts). */
async function probeBaseUrl(settings: ResolvedSettings, context: Context): Promise<Omit<CheckResult, 'name' | 'label' | 'ms'>> {
  const baseUrl = settings.baseUrl.value;
  if (!baseUrl) {
    throw new UsageError('no API base URL is set', {
      suggestion: 'Run `kct auth login --base-url <url>`, set KCT_BASE_URL, or pass --base-url. For a local API, start `kct sandbox`.',
    });
  }
  const { ms, status } = await probeApi(baseUrl, context);
  return {
    status: 'ok',
    detail: `${baseUrl} answers like the API in ${ms} ms (HTTP ${status} without a key)`,
    data: { base_url: baseUrl, source: settings.baseUrl.source, answer_ms: ms, status_without_key: status },
  };
}

async function markSample(
  client: KctClient,
  modelId: number,
  timeoutMs: number,
  startMs: number | undefined,
  context: Context,
): Promise<Omit<CheckResult, 'name' | 'label' | 'ms'>> {
  const started = performance.now();
  // a new key each run: doctor checks marking now, not a result from an earlier run
  // The question goes with the sample, so the model's rubric marks it on its own topic.
  const task = await client.onePass(
    { fields: { model_id: modelId, paper_content: SAMPLE_ANSWER, question_text: SAMPLE_QUESTION, student_id: 'kct-doctor' } },
    { idempotencyKey: `kct-doctor-${randomUUID()}`, signal: context.signal },
  );
  await client.watch([task.task_id], { timeoutMs, schedule: pollSchedule(startMs), signal: context.signal });
  const result = await client.result(task.task_id, { signal: context.signal });
  const status = statusOf(result);
  const seconds = (performance.now() - started) / 1000;
  if (isUnsuccessfulFinal(status)) {
    const reason = result.evaluation?.find((entry) => entry.type === 'error')?.comment ?? result.message ?? undefined;
    throw new TaskUnsuccessfulError(
      { [task.task_id]: status },
      `the sample answer ended ${status} (task ${task.task_id})${reason ? `: ${reason}` : ''}`,
    );
  }
  if (!isMarked(result)) {
    throw new KctError('unknown_answer', `the sample answer's task ${task.task_id} is ${status} but its result has no score`, {
      suggestion: `Look at it with \`kct result ${task.task_id} --json\`.`,
    });
  }
  const outOf = typeof result.max_score === 'number' ? ` of ${formatNumber(result.max_score)}` : '';
  const charged =
    typeof result.credits_charged === 'number'
      ? `, ${formatNumber(result.credits_charged)} credit${result.credits_charged === 1 ? '' : 's'} charged`
      : '';
  // The score is stated as proof that marking works: a built-in sample's mark judges nothing.
  return {
    status: 'ok',
    detail: `SUCCESS in ${seconds.toFixed(1)} s: the service marked the built-in sample (${formatNumber(result.score)}${outOf}, which shows only that marking works) (task ${task.task_id}${charged})`,
    data: { task_id: task.task_id, score: result.score, max_score: result.max_score ?? null },
  };
}
