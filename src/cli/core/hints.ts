// What to do next after an API error, in kct's own commands. The client's errors carry neutral
// suggestions, decided in src/client/response-errors.ts (401, 402, 403, 404, 429, 5xx), which kct
// prints in its own words for settings and methods (PHRASES); what only kct can say (an id mixed
// up, a model still training, a task already ended) lives here, applied where errors are reported.
import {
  ApiError,
  CONNECTION_ADVICE,
  KctError,
  NotFoundError,
  refusalOf,
  ServerStoppedAnsweringError,
  SILENT_SERVER,
  UnscoredResultError,
  WATCH_TIMEOUT_ADVICE,
  type WatchTimeoutError,
} from '../../api/errors.js';
import { isLoopbackHost } from './loopback.js';

interface Hint {
  when: (error: ApiError, text: string) => boolean;
  hint: (id: string) => string;
}

const HINTS: Hint[] = [
  {
    // a model id where an assignment id belongs: the most common mix-up (spec 1)
    when: (e, t) => e instanceof NotFoundError && /assignment/i.test(t) && /is a model_?id|there is a model/i.test(t),
    hint: (id) =>
      `${id} is a model id. kct evaluate needs an assignment id: create one with \`kct assign --model ${id} --name ... --desc ... --deadline ... --expected ...\`, or mark with the model directly: \`kct one-pass <file> --model ${id}\`.`,
  },
  {
    when: (e, t) => e instanceof NotFoundError && /model/i.test(t) && /is an assignment_?id|there is an assignment/i.test(t),
    hint: (id) =>
      `${id} is an assignment id: send answers to it with \`kct evaluate --assignment ${id} <file>\`; the model ids this key can use are listed by \`kct models\`.`,
  },
  {
    when: (e) => refusalOf(e) === 'model_not_ready',
    hint: (id) => `Wait until it is ready (\`kct models show ${id}\` shows its status), or choose another with \`kct models --ready\`.`,
  },
];

/** Where a base URL comes from: the flag, the environment, or the profile (`kct config get base_url` shows only the last). */
const BASE_URL_SOURCES = 'given with --base-url, KCT_BASE_URL, or `kct config set base_url`';

/**
 * The library's neutral words for a setting or a next step, and kct's for the same. Kept as text
 * (not imported from src/client) so printing an error loads nothing more.
 */
const PHRASES: [library: string | RegExp, cli: string][] = [
  ['(the baseUrl option)', '(--base-url, KCT_BASE_URL, or `kct config set base_url`)'],
  ['set it with the productUrl option', 'set it with --product-url, KCT_PRODUCT_URL or `kct config set product_url`'],
  ['check its id among the models the key can use', 'check its id with `kct models`'],
  // the advice of an HTTP error (src/client/response-errors.ts), in kct's commands
  ['one of the models the key can use', 'a model from `kct models` (`kct models --ready` lists those ready to mark with)'],
  [
    'Check the API key (the apiKey option)',
    'Check the key kct uses (`kct auth status` says which it is and where it comes from; `kct auth login` stores a working one)',
  ],
  ['check its scope and its account', '`kct auth status` shows its scope and account'],
  ['(the credits() method shows the balance)', '(`kct credits` shows the balance)'],
  ['(createAssignment)', '(`kct assign --model <id> ...`, whose id `kct evaluate --assignment` takes)'],
  ['then send the request again', 'then run the same command again'],
  ['a request sent again with its idempotency key is never charged twice', 'running the same command again is never charged twice'],
  ["to have one derived from each answer's content", "to have kct derive one from each answer's content"],
  // kct's keys are the same command's again (derived, or its --idempotency-key)
  [
    'send it again with the same idempotency key, which gets that task back with no second charge.',
    'run the same command again: its idempotency key gets that task back with no second charge.',
  ],
  // said for any command's file (kct upload and kct evaluate have no --pages): the flag is named with its command
  ['pages sent as one answer.', 'pages sent as one answer (kct one-pass --pages; kct evaluate takes the pages as several files).'],
  [/or leave it out \(every file ending (\.\w+)\)\./g, 'or leave it out with --exclude "*$1".'],
  [
    'Check the account name and its password.',
    'Check the account name and its password (KCT_PASSWORD, --password-stdin or the prompt); kct sandbox prints those of its accounts.',
  ],
];

/** The library's advice of a model wait that stopped (src/client/model-wait.ts MODEL_TRAINING_ADVICE). */
const MODEL_TRAINING_ADVICE = 'The model keeps training on the server: check it again later.';
const modelOf = (e: KctError) => (e.suggestion === MODEL_TRAINING_ADVICE ? (e as KctError & { modelId?: string }).modelId : undefined);

/**
 * kct's words for the library's errors, keyed by their code; undefined keeps the error's own
 * suggestion. Only the library's neutral advice is replaced: a command that set its own keeps it.
 */
const CODE_HINTS: Record<string, (error: KctError) => string | undefined> = {
  credentials: (e) =>
    e.message === 'no API key'
      ? 'Run `kct auth login --base-url <url>`, or set KCT_API_KEY (and KCT_BASE_URL). To try kct without an account, start `kct sandbox`: it prints its URL and keys.'
      : undefined,
  watch_timeout: (e) => {
    const model = modelOf(e);
    if (model !== undefined) return `It keeps training. Check it with \`kct models show ${model}\`, or wait again with a longer --timeout.`;
    if (e.suggestion !== WATCH_TIMEOUT_ADVICE) return undefined;
    const ids = (e as WatchTimeoutError).taskIds;
    // several tasks: the same command again collects them all (their keys find them, no second charge)
    return ids.length > 1
      ? 'The tasks keep running. Run the same command again later to collect them (no second charge), with a longer --timeout if need be.'
      : `The task keeps running. Check it later with \`kct status ${ids[0] ?? '<id>'} --watch\`.`;
  },
  interrupted: (e) => {
    const model = modelOf(e);
    return model === undefined ? undefined : `The model keeps training on the server. Check it with: kct models show ${model}`;
  },
  unknown_answer: (e) =>
    e instanceof UnscoredResultError
      ? `See the record with \`kct result ${e.taskIds[0]} --json\`, and ask the service's support why it has no score.`
      : undefined,
  redirect_refused: (e) => e.suggestion?.replace('use its new base URL:', 'set the new base URL: kct config set base_url'),
  connection: (e) => {
    // a request that may have been taken keeps its own advice (what a run again costs, a command's own word)
    if (e.suggestion !== CONNECTION_ADVICE) return undefined;
    const sandbox = refusedHere(e);
    // tasks already sent live in the sandbox's data folder: started afresh elsewhere, it would not know them
    const data = e instanceof ServerStoppedAnsweringError ? ' (with the --data folder it had: it keeps the tasks there)' : '';
    if (sandbox)
      return `Is the sandbox running? Start it with \`${sandbox}\`${data} in another terminal, or check the base URL it names (${BASE_URL_SOURCES}).`;
    // a server that takes requests and says nothing: how long each attempt waits is the user's to set
    const silent = Object.values(SILENT_SERVER).some((reason) => e.message.includes(`(${reason})`));
    return `Check the base URL it names (${BASE_URL_SOURCES}) and your network or proxy settings, then try again.${silent ? ' KCT_REQUEST_TIMEOUT sets how long each attempt waits for an answer (default 120s).' : ''}`;
  },
};

/**
 * For a connection refused by this machine (a loopback base URL: where `kct sandbox` listens), the
 * command that starts a sandbox there; undefined for any other failure. The URL is the one the
 * client's message names (src/client/network-errors.ts: "cannot reach <url> (connection refused)").
 */
function refusedHere(error: KctError): string | undefined {
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && cause && (cause as { code?: unknown }).code !== 'ECONNREFUSED'; depth++)
    cause = (cause as { cause?: unknown }).cause;
  if (!cause) return undefined;
  // the client's message, or one that wraps it ("cannot watch task …: cannot reach …")
  const url = /(?:^|: )cannot reach (\S+) \(connection refused\)/.exec(error.message)?.[1];
  if (!url || !URL.canParse(url)) return undefined;
  const { hostname, port, protocol } = new URL(url);
  if (!isLoopbackHost(hostname) || protocol !== 'http:') return undefined;
  const host = hostname === '127.0.0.1' || hostname === 'localhost' ? '' : ` --host ${hostname.replace(/^\[|\]$/g, '')}`;
  return `kct sandbox${host}${port === '' || port === '4010' ? '' : ` --port ${port}`}`;
}

/** kct's hint for an error, or undefined to keep the error's own suggestion. */
export function cliHint(error: unknown): string | undefined {
  if (!(error instanceof KctError)) return undefined;
  if (!(error instanceof ApiError)) return CODE_HINTS[error.code]?.(error) ?? worded(error);
  const text = error.message;
  const id = /(?:assignment|model)[ _]?(?:id)?\s+(\d+)/i.exec(text)?.[1] ?? '<id>';
  return HINTS.find((entry) => entry.when(error, text))?.hint(id) ?? worded(error) ?? (error.suggestion ? undefined : classHint(error));
}

/** What to do after an HTTP error that neither a command nor the library advised on. */
function classHint(error: ApiError): string | undefined {
  if (refusalOf(error) === 'task_not_cancellable')
    return `The task has already ended: \`kct result ${/\/(tsk_[A-Za-z0-9]+)\//.exec(error.url)?.[1] ?? '<task_id>'}\` shows how.`;
  return undefined;
}

/** A suggestion of the library in kct's words (for one printed without an error: a skipped file's reason). */
export function cliWords(suggestion: string): string {
  return PHRASES.reduce((text, [library, words]) => text.replaceAll(library, words), suggestion);
}

/** The library's suggestion in kct's words (the base URL is set with --base-url, ...), or undefined when it names nothing kct words otherwise. */
function worded(error: KctError): string | undefined {
  const suggestion = error.suggestion;
  if (suggestion === undefined) return undefined;
  const cli = cliWords(suggestion);
  return cli === suggestion ? undefined : cli;
}
