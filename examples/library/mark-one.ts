// A library user's first script (docs/library.md): the balance, the models, one essay marked end
// to end with the poller, and the typed errors caught with instanceof.
//   node mark-one.js <base_url> <api_key> [<key_with_no_credits>]
// Against `kct sandbox`: its base URL and its `user` key (its `broke` key shows the 402).
import { readFile } from 'node:fs/promises';
import {
  ApiError, AuthenticationError, InsufficientCreditsError, KctClient, NotFoundError, pollSchedule,
  type EvaluationResult, type Model, type StatusSnapshot,
} from 'kct';

const [baseUrl, apiKey, brokeKey] = process.argv.slice(2);
if (!baseUrl || !apiKey) throw new Error('usage: node mark-one.js <base_url> <api_key> [<key_with_no_credits>]');
const print = (line: Record<string, unknown>) => console.log(JSON.stringify(line));

const client = new KctClient({ baseUrl, apiKey, timeouts: { connectMs: 5_000 } });
try {
  const { credits } = await client.credits();
  const models: Model[] = await client.models();
  const model = models.find((candidate) => candidate.post_status === 'ready');
  if (!model) throw new Error('no model is ready to mark with');
  print({ step: 'credits', credits, models: models.length, model_id: model.model_id });

  const essay = await readFile(new URL('../sample-essay.txt', import.meta.url), 'utf8');
  // The same key for the same answer: sending it again returns the same task, never a second charge.
  const task = await client.onePass(
    { fields: { model_id: Number(model.model_id), paper_content: essay, student_id: 'student-001' } },
    { idempotencyKey: 'library-example-student-001' },
  );
  // An overall deadline is mandatory (spec 8); the signal lets the caller stop waiting sooner.
  // pollSchedule(250) suits a local sandbox: against the service keep the default (3 s, up to 15 s).
  const final: StatusSnapshot = await client.waitFor(task.task_id, { timeoutMs: 60_000, signal: AbortSignal.timeout(90_000), schedule: pollSchedule(250) });
  const result: EvaluationResult = await client.result(task.task_id);
  print({ step: 'marked', task_id: task.task_id, status: final.status, score: result.score, max_score: result.max_score, criteria: result.evaluation?.length ?? 0 });

  try {
    await client.result('tsk_does_not_exist');
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    print({ step: 'caught', error: error.name, status: error.status, code: error.code });
  }

  const stranger = new KctClient({ baseUrl, apiKey: 'kct_not_a_key_anyone_has' });
  try {
    await stranger.credits();
  } catch (error) {
    if (!(error instanceof AuthenticationError)) throw error;
    print({ step: 'caught', error: error.name, status: error.status, is_api_error: error instanceof ApiError });
  } finally {
    await stranger.close();
  }

  if (brokeKey) {
    const broke = new KctClient({ baseUrl, apiKey: brokeKey });
    try {
      const [own] = (await broke.models()).filter((candidate) => candidate.post_status === 'ready');
      await broke.onePass({ fields: { model_id: Number(own?.model_id ?? model.model_id), paper_content: essay } });
    } catch (error) {
      if (!(error instanceof InsufficientCreditsError)) throw error;
      print({ step: 'caught', error: error.name, status: error.status });
    } finally {
      await broke.close();
    }
  }
} finally {
  await client.close();
}
