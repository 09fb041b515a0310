// kct upload: one POST /uploads/file per file; prints each hosted file's record.

import { UPLOAD_MIME_TYPES } from '../../api/limits.js';
import type { UploadedFile } from '../../api/schemas.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { exporterFor } from '../../cli/render/export.js';
import type { Column } from '../../cli/render/rows.js';
import { inspectFile } from '../../client/files.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

const COLUMNS: Column<UploadedFile>[] = [
  { name: 'name', header: 'Name', value: (f) => f.name },
  // the type is what a narrow terminal gives up first: the person chose the file
  { name: 'mime_type', header: 'Type', value: (f) => f.mime_type, leaveOut: 1 },
  { name: 'size', header: 'Size', value: (f) => f.size },
  // The URL is what upload is for: never wrapped or cut, however narrow the terminal (the table
  // may then be wider than it); the other columns give way first.
  { name: 'url', header: 'URL', value: (f) => f.url, whole: true },
];

export async function run(options: Options, context: Context): Promise<void> {
  // every file is checked before the first is sent
  const files = await Promise.all(options.files.map((path) => inspectFile(path, UPLOAD_MIME_TYPES)));
  const client = await context.client();
  const exporter = await exporterFor(options, context);
  const uploaded: UploadedFile[] = [];
  try {
    for (const file of files) uploaded.push(await client.upload(file, { signal: context.signal }));
  } finally {
    // files already stored keep their URLs: print them even when a later upload fails
    if (uploaded.length > 0) await exporter.list(uploaded, COLUMNS);
  }
}
