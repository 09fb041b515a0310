import { randomInt } from 'node:crypto';
import { fileBlob, type LocalFile } from './files.js';
import { FormData } from './undici.js';

export interface FilePart {
  field: string;
  file: LocalFile;
}

/** A multipart/form-data body whose every byte is in memory, with the Content-Type that names its boundary. */
export interface EncodedForm {
  body: Buffer;
  contentType: string;
}

/**
 * Builds a multipart body: text fields as strings, arrays as JSON-array strings (spec 4), files
 * with their MIME type stated. When every file's bytes are at hand (small files, read once for
 * the idempotency key: files.ts, withContent), the body is encoded in memory (encodeForm); a file
 * to stream from disk goes as a disk-backed Blob in undici's FormData.
 */
export async function buildForm(fields: Record<string, unknown>, files: readonly FilePart[]): Promise<FormData | EncodedForm> {
  if (files.every((part) => part.file.data !== undefined)) return encodeForm(fields, files);
  const form = new FormData();
  for (const [name, value] of formFields(fields)) form.append(name, value);
  for (const part of files) {
    form.append(part.field, await fileBlob(part.file), part.file.name);
  }
  return form;
}

/** The text fields of a form, in order: undefined and null left out, other values as text. */
function formFields(fields: Record<string, unknown>): [string, string][] {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    entries.push([name, typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)]);
  }
  return entries;
}

/**
 * The same bytes undici writes for a FormData of these fields and files (its multipart/form-data
 * encoding, lib/web/fetch/body.js, after FormData.append's conversions), in one buffer: a class
 * of small answers then costs one write per request instead of a web stream per part. The
 * boundary is undici's form, with 11 random digits. test/unit/multipart-encoding.test.ts holds it
 * to undici's own encoding.
 */
export function encodeForm(fields: Record<string, unknown>, files: readonly FilePart[], boundary = newBoundary()): EncodedForm {
  const prefix = `--${boundary}\r\nContent-Disposition: form-data`;
  let text = '';
  const chunks: Uint8Array[] = [];
  for (const [name, value] of formFields(fields)) {
    text += `${prefix}; name="${escapeName(normalizeLinefeeds(wellFormed(name)))}"\r\n\r\n${normalizeLinefeeds(wellFormed(value))}\r\n`;
  }
  for (const { field, file } of files) {
    const name = wellFormed(file.name);
    text += `${prefix}; name="${escapeName(normalizeLinefeeds(wellFormed(field)))}"${name ? `; filename="${escapeName(name)}"` : ''}\r\n`;
    text += `Content-Type: ${blobType(file.type) || 'application/octet-stream'}\r\n\r\n`;
    chunks.push(Buffer.from(text, 'utf8'), file.data as Uint8Array);
    text = '\r\n';
  }
  chunks.push(Buffer.from(`${text}--${boundary}--\r\n`, 'utf8'));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function newBoundary(): string {
  return `----formdata-undici-0${`${randomInt(1e11)}`.padStart(11, '0')}`;
}

/** What FormData.append makes of a string (WebIDL's USVString): a lone surrogate becomes U+FFFD. */
function wellFormed(text: string): string {
  return (text as string & { toWellFormed(): string }).toWellFormed();
}

function normalizeLinefeeds(value: string): string {
  return value.replace(/\r?\n|\r/g, '\r\n');
}

function escapeName(name: string): string {
  return name.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
}

/** A Blob's type as the Blob constructor keeps it: lower case, or none when it holds a character outside U+0020 to U+007E. */
function blobType(type: string): string {
  return /[^\u0020-\u007E]/.test(type) ? '' : type.toLowerCase();
}
