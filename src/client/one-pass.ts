// A one-pass submission (spec 4.8): read once, keyed before anything is sent, then sent as
// multipart with its files, or as JSON: pasted text, and one plain-text answer file as
// paper_content (no multipart, no Blob, no stream: the lightest body there is; `textAsJson: false`
// sends the file). The key rule is idempotency.ts's, whatever way the body goes.
import { UsageError } from '../api/errors.js';
import { withoutDefaults } from '../api/field-defaults.js';
import { operationPath } from '../api/operations.js';
import { OnePassFields, type OnePassFields as OnePassFieldsType } from '../api/schemas.js';
import { checkFileCount, type LocalFile, withContent } from './files.js';
import type { RequestSpec } from './http.js';
import { type FileHasher, idempotencyKeyFor, type KeyedFile, type OnePassIdempotency } from './idempotency.js';
import { loneText } from './identity.js';
import { buildForm } from './multipart.js';
import { type AcceptedTask, validateRequest } from './records.js';

export interface OnePassInput {
  fields: OnePassFieldsType;
  answerFiles?: LocalFile[];
  rubricFiles?: LocalFile[];
  questionFiles?: LocalFile[];
}

/** How a submission is sent: its signal, and for a run's, its turn signal and patience (RequestSpec). */
export type SubmissionCall = Pick<RequestSpec, 'signal' | 'turnSignal' | 'patient'>;

/**
 * A one-pass submission read and keyed but not yet sent: its small answer files hold their bytes
 * (read once, for the hash and the request), and its key is known before anything is sent.
 */
export interface PreparedOnePass {
  input: OnePassInput;
  /** Undefined when no idempotency was asked for: the submission is then never retried once it may have been delivered. */
  idempotencyKey?: string;
  /** A run's submission ends its wait for a turn on `turnSignal`, and outlasts the pace when `patient` (RequestSpec). */
  send(options?: SubmissionCall): Promise<AcceptedTask>;
}

/**
 * Reads the answer files that fit in one read (larger ones are hashed, then streamed) and makes the
 * key by the rule chosen. `asText: false` (textAsJson) leaves them on disk: a file then goes as its
 * file, and its key is of its bytes (loneText reads only what is held).
 */
export async function readAndKey(
  input: OnePassInput,
  choice: OnePassIdempotency | undefined,
  hasher?: FileHasher,
  asText = true,
): Promise<{ input: OnePassInput; idempotencyKey?: string }> {
  const read: OnePassInput = { ...input, ...(input.answerFiles && asText ? { answerFiles: input.answerFiles.map(withContent) } : {}) };
  const idempotencyKey = await idempotencyKeyFor(choice, { endpoint: 'one-pass', fields: read.fields, files: filePartsOf(read) }, hasher);
  return { input: read, idempotencyKey };
}

/** The request of a submission read by readAndKey: JSON for text, multipart when files go with it. */
export function onePassRequest(
  input: OnePassInput,
  idempotencyKey: string | undefined,
  { textAsJson, ...call }: SubmissionCall & { textAsJson?: boolean } = {},
): RequestSpec {
  const fields = withoutDefaults(validateRequest(OnePassFields, input.fields, 'one-pass request'));
  if (fields.paper_content === undefined && !input.answerFiles?.length) {
    throw new UsageError('an answer is required: paper_content text or at least one answer file');
  }
  const parts = filePartsOf(input);
  checkFileCount(parts.length);
  const text = textAsJson ? plainTextAnswer(input) : undefined;
  const body =
    text !== undefined
      ? { json: { ...fields, paper_content: text } }
      : parts.length > 0
        ? { form: () => buildForm(fields, parts) }
        : { json: fields };
  return {
    method: 'POST',
    path: operationPath('onePass'),
    ...body,
    idempotencyKey,
    ...call,
  };
}

/** The text of a submission sent as JSON paper_content (loneText: the rule its identity reads), or undefined. */
export function plainTextAnswer(input: OnePassInput): string | undefined {
  if (input.fields.paper_content !== undefined) return undefined;
  return loneText(input.answerFiles ?? [], (input.rubricFiles?.length ?? 0) + (input.questionFiles?.length ?? 0));
}

/** The files of a one-pass submission, each under its form field, in the order they are sent and hashed. */
function filePartsOf(input: OnePassInput): KeyedFile[] {
  return [
    ...(input.answerFiles ?? []).map((file) => ({ field: 'answer_files', file })),
    ...(input.rubricFiles ?? []).map((file) => ({ field: 'rubric_files', file })),
    ...(input.questionFiles ?? []).map((file) => ({ field: 'question_files', file })),
  ];
}
