import { fileBlob, type LocalFile } from './files.js';
import { FormData } from './undici.js';

export interface FilePart {
  field: string;
  file: LocalFile;
}

/**
 * Builds a multipart body: text fields as strings, arrays as JSON-array strings (spec 4), files
 * as disk-backed blobs with their MIME type stated.
 */
export async function buildForm(fields: Record<string, unknown>, files: readonly FilePart[]): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    form.append(name, typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  for (const part of files) {
    form.append(part.field, await fileBlob(part.file), part.file.name);
  }
  return form;
}
