import { readFile } from 'node:fs/promises';
import { UsageError } from '../../api/errors.js';
import { CurrentFeedback } from '../../api/schemas.js';

const SHAPE = 'It must be a JSON array like [{"item": "Thesis", "comment": "Clear position", "score": 4}].';

/** Reads --feedback-json: a JSON array of {item, comment, score} (current_feedbacks). */
export async function readFeedbackFile(path: string): Promise<CurrentFeedback[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --feedback-json ${path}: ${(error as Error).message}`, {
      suggestion: 'Give the path of a JSON file of the feedback, relative to this folder or absolute.',
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UsageError(`--feedback-json ${path} is not JSON: ${(error as Error).message}`, { suggestion: SHAPE });
  }
  const result = CurrentFeedback.array().safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new UsageError(`--feedback-json ${path}: ${issue.path.length ? `[${issue.path.join('].')}` : 'the file'}: ${issue.message}`, {
      suggestion: SHAPE,
    });
  }
  return result.data;
}
