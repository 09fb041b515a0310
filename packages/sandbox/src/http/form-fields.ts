// Multipart text fields arrive as strings; this turns them into the JSON shapes the request
// schemas expect, so JSON and multipart bodies are validated by the same zod schema.
import { JSON_ARRAY_FIELDS } from 'kct/api/operations.js';
import { httpError } from './envelope.js';

const INTEGER_FIELDS = new Set(['model_id', 'assignment_id', 'expected_number']);
const NUMBER_FIELDS = new Set(['total_score']);
const ARRAY_FIELDS = new Set<string>(JSON_ARRAY_FIELDS);

export function coerceMultipartFields(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (ARRAY_FIELDS.has(name)) out[name] = jsonArray(name, value);
    else if (typeof value !== 'string') out[name] = value;
    else if (INTEGER_FIELDS.has(name) && /^\s*-?\d+\s*$/.test(value)) out[name] = Number(value);
    else if (NUMBER_FIELDS.has(name) && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) out[name] = Number(value);
    else out[name] = value;
  }
  return out;
}

function jsonArray(name: string, value: unknown): unknown[] {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
  }
  if (!Array.isArray(parsed)) {
    throw httpError(
      400,
      `Multipart field "${name}" must be a string holding a JSON array (for example [{"item": "Thesis", "comment": "...", "score": 4}]).`,
      'invalid_json_array',
    );
  }
  return parsed;
}
