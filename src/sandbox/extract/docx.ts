import { ExtractionError, reason } from './errors.js';
import { tidy } from './tidy.js';

export async function extractDocx(filePath: string): Promise<{ text: string; method: string }> {
  const { default: mammoth } = await import('mammoth');
  let value: string;
  try {
    ({ value } = await mammoth.extractRawText({ path: filePath }));
  } catch (err) {
    throw new ExtractionError(`The file is not a readable Word (.docx) document (${reason(err)}).`, { cause: err });
  }
  return { text: tidy(value), method: 'docx/mammoth' };
}
