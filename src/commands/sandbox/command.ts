import { defineCommand } from '../../cli/core/define-command.js';
import { parseDuration } from '../../cli/core/duration.js';
import { hostOption } from '../../cli/core/options.js';
import { checked, parseMilliseconds, parsePort, parsePositiveInteger, parsePositiveNumber } from '../../cli/core/parse.js';
import { parsePublicUrl, parseRateLimit } from './checks.js';

export const command = defineCommand({
  name: 'sandbox',
  summary: 'run a local, durable implementation of the whole API (offline, for trying kct and for tests)',
  options: {
    ...hostOption,
    '--port <port>': { description: 'port (0 picks a free one)', defaultValue: '4010', check: checked(parsePort, '--port') },
    '--data <dir>': 'data folder (SQLite database and files); default: $XDG_DATA_HOME/kct/sandbox',
    '--latency <ms>': {
      description: 'milliseconds per processing stage',
      defaultValue: '300',
      check: checked(parseMilliseconds, '--latency'),
    },
    '--workers <n>': { description: 'tasks processed at once', defaultValue: '4', check: checked(parsePositiveInteger, '--workers') },
    '--allow-private-callbacks': 'allow callbacks to loopback/private addresses and plain http (for local receivers)',
    '--time-scale <n>': {
      description: 'divide the callback retry schedule and the extra time of KCT-SANDBOX-SLOW by n (tests)',
      defaultValue: '1',
      check: checked(parsePositiveNumber, '--time-scale'),
    },
    '--training-delay <ms>': {
      description: 'milliseconds a model made with POST /models stays "training" before it is ready',
      defaultValue: '0',
      check: checked(parseMilliseconds, '--training-delay'),
    },
    '--grader <engine>': {
      description: 'who marks: "sandbox" (deterministic, the default) or "openai" (your OpenAI-compatible server)',
      defaultValue: 'sandbox',
    },
    '--grader-url <url>':
      'with --grader openai: base URL of the API, e.g. http://127.0.0.1:11434/v1 (key, if any, from KCT_GRADER_API_KEY)',
    '--grader-model <name>': 'with --grader openai: model name on that server',
    '--grader-timeout <ms>': {
      description: 'with --grader openai: time limit per model request',
      defaultValue: '120000',
      check: checked(parsePositiveInteger, '--grader-timeout'),
    },
    '--grader-concurrency <n>': {
      description: 'with --grader openai: model requests at once',
      defaultValue: '2',
      check: checked(parsePositiveInteger, '--grader-concurrency'),
    },
    '--public-url <url>': {
      description:
        'origin the clients use: of the upload URLs it hands out, and of the base URL it announces (default: the listen address), e.g. https://sandbox.school.example',
      check: checked(parsePublicUrl, '--public-url'),
    },
    '--threads <n>': {
      description: 'worker threads for reading files and marking (default: the number of cores)',
      check: checked(parsePositiveInteger, '--threads'),
    },
    '--job-timeout <duration>': {
      description: 'longest one stage of a task (or a preview) may compute',
      defaultValue: '180s',
      check: checked(parseDuration, '--job-timeout'),
    },
    '--request-timeout <duration>': {
      description: 'a whole request (headers and body) must arrive within this',
      defaultValue: '60s',
      check: checked(parseDuration, '--request-timeout'),
    },
    '--headers-timeout <duration>': {
      description: 'the headers of a request must arrive within this',
      defaultValue: '10s',
      check: checked(parseDuration, '--headers-timeout'),
    },
    '--idle-timeout <duration>': {
      description: 'a connection silent this long while awaited is closed',
      defaultValue: '10s',
      check: checked(parseDuration, '--idle-timeout'),
    },
    '--max-connections <n>': {
      description: 'connections one client address may hold open (more get 503)',
      defaultValue: '256',
      check: checked(parsePositiveInteger, '--max-connections'),
    },
    '--max-key-connections <n>': {
      description: 'connections one API key may hold open, so a slow client leaves room for the others at its address (more get 503)',
      defaultValue: '64',
      check: checked(parsePositiveInteger, '--max-key-connections'),
    },
    '--rate-limit <n>': {
      description: 'requests a second each API key may make, in bursts of one second (more get 429 with Retry-After); default: no limit',
      check: checked(parseRateLimit, '--rate-limit'),
    },
    '--log': 'print one line per request, and internal errors, on stderr (keys redacted)',
  },
  examples: [
    'kct sandbox',
    'kct sandbox --port 0 --json --data /tmp/kct-sbx --latency 0',
    'kct sandbox --training-delay 5000   # new models take 5 s to become ready',
    'kct sandbox --grader openai --grader-url http://127.0.0.1:11434/v1 --grader-model llama3.1:8b   # mark with Ollama',
    'kct sandbox --host 0.0.0.0 --public-url http://192.168.1.20:4010   # on a school network',
    'kct sandbox --rate-limit 50   # each key: 50 requests a second, then 429 with Retry-After, as a real service',
    'KCT_BASE_URL=http://127.0.0.1:4010/v1 KCT_API_KEY=<user key> kct one-pass essay.pdf --model 12',
  ],
  load: () => import('./run.js'),
});
