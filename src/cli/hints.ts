// What to do next after an API error, in kct's own commands. The client's errors carry neutral
// suggestions (and the server's message names API routes); the words that name kct commands live
// here, in one table, applied where errors are reported.
import { ApiError } from '../api/errors.js';

interface Hint {
  when: (error: ApiError, text: string) => boolean;
  hint: (id: string) => string;
}

const HINTS: Hint[] = [
  {
    // a model id where an assignment id belongs: the most common mix-up (spec 1)
    when: (e, t) => e.status === 404 && /assignment/i.test(t) && /is a model_?id|there is a model/i.test(t),
    hint: (id) => `${id} is a model id. kct evaluate needs an assignment id: create one with \`kct assign --model ${id} --name ... --desc ... --deadline ... --expected ...\`, or mark with the model directly: \`kct one-pass <file> --model ${id}\`.`,
  },
  {
    when: (e, t) => e.status === 404 && /model/i.test(t) && /is an assignment_?id|there is an assignment/i.test(t),
    hint: (id) => `${id} is an assignment id: send answers to it with \`kct evaluate --assignment ${id} <file>\`; the model ids this key can use are listed by \`kct models\`.`,
  },
  {
    when: (e, t) => e.status === 404 && (e.errorCode === 'assignment_not_found' || /assignment .*does not exist|no assignment/i.test(t)),
    hint: () => 'Create an assignment with `kct assign --model <id> ...` and pass the assignment id it prints to `kct evaluate --assignment`.',
  },
  {
    when: (e, t) => e.status === 404 && (e.errorCode === 'model_not_found' || /model .*does not exist|no model/i.test(t)),
    hint: () => 'List the models this key can use with `kct models` (`kct models --ready` for those ready to mark with).',
  },
  {
    when: (e, t) => e.status === 403 && (e.errorCode === 'model_forbidden' || /model/i.test(t)),
    hint: () => 'Choose a model from `kct models`: a key sees only its owner\'s models, or its organization\'s.',
  },
  {
    when: (e, t) => e.status === 409 && (e.errorCode === 'model_not_ready' || /not ready/i.test(t)),
    hint: (id) => `Wait until it is ready (\`kct models show ${id}\` shows its status), or choose another with \`kct models --ready\`.`,
  },
];

/** kct's hint for an API error, or undefined to keep the error's own suggestion. */
export function cliHint(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const text = error.message;
  const id = /(?:assignment|model)[ _]?(?:id)?\s+(\d+)/i.exec(text)?.[1] ?? '<id>';
  return HINTS.find((entry) => entry.when(error, text))?.hint(id);
}
