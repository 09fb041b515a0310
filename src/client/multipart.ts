import { FormDataEncoder } from 'form-data-encoder';
import { fileBlob, type LocalFile, ONE_READ_BYTES } from './files.js';
import { FormData } from './undici.js';

export interface FilePart {
  field: string;
  file: LocalFile;
}

/** A multipart body already encoded, with the Content-Type that names its boundary. */
export interface EncodedForm {
  bytes: Uint8Array;
  contentType: string;
}

/**
 * Builds a multipart body: text fields as strings, arrays as JSON-array strings (spec 4), files
 * with their MIME type stated. When the files were read in advance and fit in one read together
 * (a class's answers), the body is encoded into one buffer by form-data-encoder from their bytes:
 * undici's own encoding makes a Blob and a web stream per part, about twice the CPU and most of a
 * run's garbage (docs/benchmarks.md). Anything larger goes in a FormData that undici streams.
 */
export async function buildForm(fields: Record<string, unknown>, files: readonly FilePart[]): Promise<FormData | EncodedForm> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    form.append(name, typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  // a big body goes in a stream: written piece by piece, a connection cut short is known not to have delivered it
  const inMemory =
    files.every((part) => part.file.data !== undefined) && files.reduce((sum, part) => sum + part.file.size, 0) <= ONE_READ_BYTES;
  const bytesOf = new Map<unknown, Uint8Array>();
  for (const part of files) {
    if (!inMemory) form.append(part.field, await fileBlob(part.file), part.file.name);
    else {
      const file = new File([part.file.data as Uint8Array], part.file.name, { type: part.file.type });
      bytesOf.set(file, part.file.data as Uint8Array);
      form.append(part.field, file);
    }
  }
  if (!inMemory) return form;
  const encoder = new FormDataEncoder(form);
  const chunks: Uint8Array[] = [];
  for (const value of encoder.values()) {
    // a file part is the File appended (kept as it is by FormData), whose bytes are at hand
    chunks.push(
      value instanceof Uint8Array ? value : (bytesOf.get(value) ?? new Uint8Array(await (value as unknown as Blob).arrayBuffer())),
    );
  }
  return { bytes: Buffer.concat(chunks), contentType: encoder.contentType };
}
