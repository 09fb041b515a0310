// Reads a saved run line by line: the ndjson of `kct one-pass --output ndjson` or
// `kct batch --output ndjson` (one answer per line), from a file or stdin.
import { accessSync, constants, createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { UsageError } from '../../api/errors.js';
import { EvaluationEntry } from '../../api/schemas.js';
import type { ReportRow } from './html.js';

const Row = z.looseObject({
  file: z.string().optional(),
  student_id: z.string().nullable().optional(),
  student_name: z.string().nullable().optional(),
  task_id: z.string().nullable().optional(),
  status: z.string().min(1),
  score: z.number().nullable().optional(),
  max_score: z.number().nullable().optional(),
  message: z.string().nullable().optional(),
  duplicate_of: z.string().nullable().optional(),
  graded_by: z.string().nullable().optional(),
  evaluation: z.array(EvaluationEntry).nullable().optional(),
});

const FORMAT_HINT =
  'Save a run with `kct one-pass <folder> --output ndjson > marks.ndjson` (or `kct batch ... --output ndjson`), then run `kct report marks.ndjson --out class.html`.';

/** Each answer of a saved run, in order; throws a UsageError naming the line that is not one. */
export async function* readSavedRun(path: string, stdin: Readable): AsyncGenerator<ReportRow> {
  const name = path === '-' ? 'stdin' : path;
  if (path !== '-') checkReadable(path);
  const input = path === '-' ? stdin : createReadStream(path);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let number = 0;
  let rows = 0;
  for await (const line of lines) {
    number += 1;
    const text = line.trim();
    if (text === '') continue;
    if (rows === 0 && text.startsWith('[')) {
      throw new UsageError(`${name} holds one JSON array (the output of --json); kct report reads one answer per line`, {
        suggestion: FORMAT_HINT,
      });
    }
    if (rows === 0 && /^"?file"?,/.test(text)) {
      throw new UsageError(`${name} is CSV, which has no feedback; kct report reads the ndjson of a run`, { suggestion: FORMAT_HINT });
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new UsageError(`${name} line ${number} is not JSON`, { suggestion: FORMAT_HINT });
    }
    const parsed = Row.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(`${name} line ${number} is not an answer of a run: ${issue.path.join('.') || 'the line'}: ${issue.message}`, {
        suggestion: FORMAT_HINT,
      });
    }
    rows += 1;
    yield parsed.data as ReportRow;
  }
  if (rows === 0) throw new UsageError(`${name} holds no answers`, { suggestion: FORMAT_HINT });
}

function checkReadable(path: string): void {
  try {
    if (statSync(path).isDirectory()) throw new UsageError(`${path} is a folder, not a saved run`, { suggestion: FORMAT_HINT });
    accessSync(path, constants.R_OK);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message}`,
      { suggestion: FORMAT_HINT },
    );
  }
}
