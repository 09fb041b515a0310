// POST /questions-ingest-preview and /rubrics-ingest-preview (spec 4.4, 4.5): from the request's
// fields and files (routes/model-building.ts reads it in any of its three styles), gather the
// files (multipart parts and `assets`), extract their text
// (PDF, DOCX, RTF, TXT; images and scanned pages by OCR), and parse it. Nothing is stored: the
// preview is for a person to check and edit before POST /models.
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_FILES_PER_REQUEST, PREVIEW_MIME_TYPES } from 'kct/api/limits.js';
import type { SandboxContext } from '../context.js';
import { ExtractionError } from '../engines/jobs.js';
import { jobRefusal } from '../engines/work/refusals.js';
import { httpError } from '../http/envelope.js';
import type { ReceivedFile } from '../http/multipart.js';
import { fetchAssets, type SourceFile } from './assets.js';
import type { Fields, PreviewKind, QuestionsPreview, ReadSource, RubricsPreview } from './preview-parse.js';

export type { PreviewKind, QuestionsPreview, RubricsPreview } from './preview-parse.js';

export const PREVIEW_FILE_FIELDS = ['file', 'files'] as const;

/** A validated preview request: its fields, its received files, and where its assets may point. */
export interface PreviewRequest {
  fields: Fields;
  files: ReceivedFile[];
  /** The connection, to know a URL of this sandbox's own uploads (ingest/assets.ts). */
  connection: Parameters<typeof fetchAssets>[1];
  publicOrigin: string;
}

/** Fetches and extracts; removes every temporary file it made before it returns. */
export async function runPreview(
  kind: PreviewKind,
  request: PreviewRequest,
  ctx: SandboxContext,
): Promise<QuestionsPreview | RubricsPreview> {
  const { fields } = request;
  const scratch = join(ctx.files.incoming, `preview-${randomBytes(12).toString('hex')}`);
  try {
    const sources: SourceFile[] = request.files.map((file) => ({
      origin: 'file',
      name: file.name,
      mime: file.mime,
      size: file.size,
      path: file.path,
    }));
    const assets = fields.assets ?? [];
    if (sources.length + assets.length === 0) {
      throw httpError(
        400,
        `Nothing to parse: send files in the multipart field "files" (or "file"), or public URLs in "assets".`,
        'invalid_request',
      );
    }
    if (sources.length + assets.length > MAX_FILES_PER_REQUEST) {
      throw httpError(
        400,
        `Too many files: ${sources.length} file(s) and ${assets.length} asset(s) make ${sources.length + assets.length}; at most ${MAX_FILES_PER_REQUEST} may be sent in one request.`,
        'too_many_files',
      );
    }
    if (assets.length > 0) {
      await mkdir(scratch, { recursive: true, mode: 0o700 });
      sources.push(
        ...(await fetchAssets(
          assets,
          request.connection,
          { store: ctx.store, publicOrigin: request.publicOrigin, absolute: (p) => ctx.files.absolute(p) },
          scratch,
          PREVIEW_MIME_TYPES,
        )),
      );
    }
    const read: ReadSource[] = [];
    for (const source of sources) {
      try {
        read.push({ ...source, ...(await ctx.engines.extractText(source.path, source.mime, { bounded: true })) });
      } catch (err) {
        if (err instanceof ExtractionError) throw httpError(400, `"${source.name}" could not be read: ${err.message}`, 'unreadable_file');
        throw jobRefusal(err, `reading "${source.name}"`) ?? err;
      }
    }
    let outcome;
    try {
      outcome = await ctx.engines.parsePreview(kind, fields, read);
    } catch (err) {
      throw jobRefusal(err, `parsing the ${kind}`) ?? err;
    }
    if (!outcome.ok) throw httpError(400, outcome.message, kind === 'questions' ? 'too_many_questions' : 'too_many_criteria');
    return outcome.preview;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
