// An answer's identity: what decides its mark, and nothing that only names it. It is the content
// (the answer's text, or its files' bytes in order, with their types), the model and every option
// that changes the marking (rubric, question, style, total, ...), with the rubric and question
// files by content. Labels are never part of it: the student id, file names, paths, folders, or
// which flag derived them. Two answers with one identity get one mark; kct charges an identity
// once (docs/guides/large-runs-and-reruns.md, "What is the same answer").
import { createHash } from 'node:crypto';
import { canonicalJson } from '../api/canonical.js';
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

const sha256 = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');

/** The content of one answer: its text, or its files in order. A lone plain-text file is its text. */
type Content = { text: string } | { files: { type: string; sha256: string }[] };

/**
 * The identity of one submission (a one-pass request, or one item of a batch): a SHA-256 over the
 * marking (every field but the labels and the text, the rubric and question files by type and
 * content) and the answer's content. The same bytes under other names have the same identity.
 */
export async function identityOf(fields: Record<string, unknown>, files: readonly KeyedFile[], hash: FileHasher): Promise<string> {
  const marking: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields))
    if (!LABEL_FIELDS.has(name) && name !== TEXT_FIELD && value !== undefined) marking[name] = value;
  const materials: { field: string; type: string; sha256: string }[] = [];
  const answerFiles: { type: string; sha256: string }[] = [];
  for (const { field, file } of files) {
    const described = { type: file.type, sha256: await hash(file) };
    if (ANSWER_FIELDS.has(field)) answerFiles.push(described);
    else materials.push({ field, ...described });
  }
  const text = fields[TEXT_FIELD];
  // a plain-text file and the same bytes as text are one answer, however they travel
  const content: Content =
    typeof text === 'string'
      ? { text: sha256(text) }
      : answerFiles.length === 1 && answerFiles[0].type === 'text/plain'
        ? { text: answerFiles[0].sha256 }
        : { files: answerFiles };
  // 128 bits: two different answers never share one, and a district's identities stay small
  return sha256(canonicalJson({ v: 1, marking, materials, content })).slice(0, 32);
}

/** What names a submission: its labels, the fields left out of its identity, and every file's name. */
export function labelsOf(fields: Record<string, unknown>, files: readonly KeyedFile[]): Record<string, unknown> {
  const labels: Record<string, unknown> = {};
  for (const name of LABEL_FIELDS) if (fields[name] !== undefined) labels[name] = fields[name];
  if (files.length > 0) labels.files = files.map(({ field, file }) => [field, file.name]);
  return labels;
}
