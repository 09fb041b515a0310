// An answer's identity: what decides its mark, and nothing that only names it. It is the content
// (the answer's text, or its files' bytes in order, with their types), the model and every option
// that changes the marking (rubric, question, style, total, ...), with the rubric and question
// files by content. Labels are never part of it: the student id, file names, paths, folders, or
// which flag derived them. Two answers with one identity get one mark; kct charges an identity
// once (docs/guides/large-runs-and-reruns.md, "What is the same answer").
import { hash } from 'node:crypto';
import { canonicalJson } from '../api/canonical.js';
import { isSpecDefault } from '../api/field-defaults.js';
import { decodedText, utf16Order } from '../api/text-bytes.js';
import type { LocalFile } from './files.js';

/** A file of a submission under its form field (answer_files, rubric_files, question_files). */
export interface KeyedFile {
  field: string;
  file: LocalFile;
}

/** The SHA-256 of a file's content: of its bytes when it fit in one read, else streamed from disk. */
export type FileHasher = (file: LocalFile) => Promise<string>;

/** Fields that name an answer without changing its mark. */
const LABEL_FIELDS: ReadonlySet<string> = new Set(['student_id']);
/** The answer's own text: content, kept apart from the marking options. */
const TEXT_FIELD = 'paper_content';
const ANSWER_FIELDS: ReadonlySet<string> = new Set(['answer_file', 'answer_files', 'paper_file', 'paper_files', 'file', 'files']);

/**
 * The SHA-256 of text (as UTF-8) or bytes, in hex. One call, no Hash object: a run hashes every
 * answer several times, and each Hash object holds native memory until a collection frees it.
 */
export const sha256 = (data: string | Uint8Array): string => hash('sha256', data);

/** Whether bytes begin with a byte order mark: UTF-8's, or UTF-16's in either order. */
export const startsWithBom = (bytes: Uint8Array): boolean =>
  (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) || utf16Order(bytes) !== undefined;

/**
 * The text a submission's one plain-text answer file is sent as (JSON paper_content): its bytes
 * held (one read), no rubric or question file beside it, read as text (UTF-8, or UTF-16 by its byte
 * order mark; the mark dropped) that is not blank and holds no NUL. Undefined: it goes as its file.
 * Its identity is that text, so every save of it (a mark, UTF-16) is the answer pasted or in a
 * manifest; a file that goes as a file is its bytes, as sent.
 */
export function loneText(answerFiles: readonly LocalFile[], materials: number): string | undefined {
  const [file, ...more] = answerFiles;
  if (file?.data === undefined || more.length > 0 || materials > 0 || file.type !== 'text/plain') return undefined;
  const text = decodedText(file.data);
  return text === undefined || text.trim() === '' || text.includes('\0') ? undefined : text;
}

/**
 * The identity of one submission (a one-pass request, or one item of a batch): a SHA-256 over the
 * marking (every field but the labels and the text, the rubric and question files by type and
 * content) and the answer's content. The same bytes under other names have the same identity.
 */
export async function identityOf(fields: Record<string, unknown>, files: readonly KeyedFile[], hash: FileHasher): Promise<string> {
  const materials = files.filter(({ field }) => !ANSWER_FIELDS.has(field));
  const answerFiles = files.filter(({ field }) => ANSWER_FIELDS.has(field)).map(({ file }) => file);
  const marking = await markingOf(fields, materials, hash);
  const given = fields[TEXT_FIELD];
  const text = typeof given === 'string' ? given : loneText(answerFiles, materials.length);
  return text !== undefined ? answerIdentity(marking, { text }) : answerIdentity(marking, { files: await contentOf(answerFiles, hash) });
}

/**
 * What every answer of a run shares: the digest of its marking (every field but the labels and the
 * text; the rubric and question files by type and content). Made once a run, not once an answer.
 */
export async function markingOf(fields: Record<string, unknown>, materials: readonly KeyedFile[], hash: FileHasher): Promise<string> {
  const marking: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields))
    if (!LABEL_FIELDS.has(name) && name !== TEXT_FIELD && value !== undefined && !isSpecDefault(name, value)) marking[name] = value;
  const described = [];
  for (const { field, file } of materials) described.push({ field, type: file.type, sha256: await hash(file) });
  return sha256(canonicalJson({ v: 1, marking, materials: described }));
}

/** An answer's files as its identity reads them: each one's type and SHA-256, in order. */
export async function contentOf(files: readonly LocalFile[], hash: FileHasher): Promise<{ type: string; sha256: string }[]> {
  const described = [];
  for (const file of files) described.push({ type: file.type, sha256: await hash(file) });
  return described;
}

/**
 * An answer's identity from its run's marking and its content: its text, or its files in order (a
 * lone plain-text file and the same bytes as text are one answer, however they travel). 128 bits:
 * two different answers never share one, and a district's identities stay small.
 */
export function answerIdentity(
  marking: string,
  content: { text: string } | { files: readonly { type: string; sha256: string }[] },
): string {
  const files = 'files' in content ? content.files : undefined;
  const described =
    files === undefined
      ? `text ${sha256((content as { text: string }).text)}`
      : files.length === 1 && files[0].type === 'text/plain'
        ? `text ${files[0].sha256}`
        : `files ${files.map((file) => `${file.type} ${file.sha256}`).join(' ')}`;
  return sha256(`kct-answer v1\n${marking}\n${described}`).slice(0, 32);
}

/** What names a submission: its labels, the fields left out of its identity, and every file's name. */
export function labelsOf(fields: Record<string, unknown>, files: readonly KeyedFile[]): Record<string, unknown> {
  const labels: Record<string, unknown> = {};
  for (const name of LABEL_FIELDS) if (fields[name] !== undefined) labels[name] = fields[name];
  if (files.length > 0) labels.files = files.map(({ field, file }) => [field, file.name]);
  return labels;
}
