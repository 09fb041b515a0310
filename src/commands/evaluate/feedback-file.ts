import { readFile } from 'node:fs/promises';
import { UsageError } from '../../api/errors.js';
import { CurrentFeedback } from '../../api/schemas.js';

/** Reads --feedback-json: a JSON array of {item, comment, score} (current_feedbacks). */
export async function readFeedbackFile(path: string): Promise<CurrentFeedback[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read --feedback-json ${path}: ${(error as Error).message}`);
  }
  const result = CurrentFeedback.array().safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new UsageError(`--feedback-json ${path}: ${issue.path.length ? `[${issue.path.join('].')}` : 'the file'}: ${issue.message}`, {
      suggestion: 'It must be a JSON array like [{"item": "Thesis", "comment": "Clear position", "score": 4}].',
    });
  }
  return result.data;
}
