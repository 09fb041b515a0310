// The preview files of model building, written: what `kct ingest` and `kct models new` write for a
// person to check and edit (the editable fields only, in the file's order, with a comment header in
// YAML), in one step. preview-file.ts reads them back.
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Document } from 'yaml';
import { UsageError } from '../../api/errors.js';
import type { PreviewKind } from '../../api/preview.js';
import { formatOf } from './preview-file.js';

export interface QuestionsPreviewLike {
  assignment_name?: unknown;
  assignment_desc?: unknown;
  questions?: unknown;
  warnings?: unknown;
  source_files?: unknown;
}

export interface RubricsPreviewLike {
  rubrics?: unknown;
  total_score?: unknown;
  cum_method?: unknown;
  warnings?: unknown;
  source_files?: unknown;
}

/** The editable part of a questions preview, in the file's field order. */
export function questionsFileContent(preview: QuestionsPreviewLike): Record<string, unknown> {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  return {
    kind: 'questions',
    assignment_name: text(preview.assignment_name) ?? null,
    assignment_desc: text(preview.assignment_desc) ?? null,
    questions: Array.isArray(preview.questions) ? preview.questions.map(cleanQuestion) : [],
  };
}

function cleanQuestion(q: unknown): unknown {
  if (typeof q !== 'object' || q === null) return q;
  const { number, text, marks, sub_questions: subs } = q as Record<string, unknown>;
  return {
    number: typeof number === 'number' ? String(number) : number,
    text: text ?? '',
    ...(marks !== undefined && marks !== null ? { marks } : {}),
    ...(Array.isArray(subs) && subs.length > 0 ? { sub_questions: subs.map(cleanQuestion) } : {}),
  };
}

export function rubricsFileContent(
  preview: RubricsPreviewLike,
  overrides: { totalScore?: number; cumMethod?: string } = {},
): Record<string, unknown> {
  const rubrics = Array.isArray(preview.rubrics) ? preview.rubrics : [];
  return {
    kind: 'rubrics',
    total_score: overrides.totalScore ?? preview.total_score ?? null,
    cum_method: overrides.cumMethod ?? preview.cum_method ?? null,
    rubrics: rubrics.map((r: Record<string, unknown>) => ({
      item: r.item,
      max_score: r.max_score,
      ...(typeof r.description === 'string' && r.description !== '' ? { description: r.description } : {}),
      ...(Array.isArray(r.levels) && r.levels.length > 0
        ? { levels: r.levels.map((l: Record<string, unknown>) => ({ score: l.score, descriptor: l.descriptor })) }
        : {}),
    })),
  };
}

function sourceNames(preview: { source_files?: unknown }): string[] {
  if (!Array.isArray(preview.source_files)) return [];
  return preview.source_files.map(
    (s: Record<string, unknown>) => `${String(s.name ?? s.url ?? '?')}${s.method ? ` (${String(s.method)})` : ''}`,
  );
}

export function previewHeader(kind: PreviewKind, path: string, preview: { source_files?: unknown; warnings?: unknown }): string {
  const other = kind === 'questions' ? 'rubrics.yaml' : 'questions.yaml';
  const args =
    kind === 'questions' ? `--questions ${basename(path)} --rubrics ${other}` : `--questions ${other} --rubrics ${basename(path)}`;
  const lines = [
    ` kct ${kind} preview, parsed from: ${sourceNames(preview).join(', ') || 'unknown'}`,
    ' Check it against the document and edit freely (docs/model-building.md has the format), then:',
    `   kct models create ${args}`,
  ];
  const warnings = Array.isArray(preview.warnings) ? preview.warnings.filter((w): w is string => typeof w === 'string') : [];
  if (warnings.length > 0) {
    lines.push(' Warnings from parsing:');
    for (const w of warnings) lines.push(`   - ${w}`);
  }
  return lines.join('\n');
}

/** The file's text: YAML with a comment header, or plain JSON. */
export function renderPreviewFile(path: string, content: Record<string, unknown>, header?: string): string {
  if (formatOf(path) === 'json') return `${JSON.stringify(content, null, 2)}\n`;
  const doc = new Document(content);
  if (header) doc.commentBefore = header;
  return doc.toString({ lineWidth: 0, indentSeq: true });
}

/** Writes a file in one step (a temporary file renamed over it), so an editor never sees half of it. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { flag: 'wx' });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw new UsageError(`cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, {
      suggestion: 'Check that the folder exists and is writable.',
    });
  }
}
