// What a failure may tell the sender (src/sandbox/engines/work/reasons.ts): never a library's internal words.
import { describe, expect, test } from 'vitest';
import { GENERIC_UNREADABLE, senderReason } from '../../packages/sandbox/src/engines/work/reasons.js';

describe('senderReason', () => {
  test('a message written for the sender is kept as it is', () => {
    const message =
      'The Word (.docx) document is too large once unpacked: it holds 20000 parts, over the limit of 10000. Send the essay as a smaller document, or as PDF or text.';
    expect(senderReason(message)).toBe(message);
    expect(senderReason('The PDF has 300 pages; at most 200 are read.', { name: 'Error', message: 'Invalid PDF structure' })).toBe(
      'The PDF has 300 pages; at most 200 are read.',
    );
  });

  test.each([
    ['RangeError', 'Maximum call stack size exceeded'],
    ['TypeError', "Cannot read properties of undefined (reading 'children')"],
    ['Error', "ENOENT: no such file or directory, open '/tmp/x'"],
  ])("an engine error's words (%s: %s) are replaced by a hint", (name, words) => {
    const out = senderReason(`The file is not a readable Word (.docx) document (${words}).`, { name, message: words });
    expect(out).toBe(
      'The file is not a readable Word (.docx) document. It may be damaged, or built in a way the sandbox cannot read: save it again, or send it as PDF or plain text.',
    );
  });

  test('internal words left anywhere make the whole reason generic', () => {
    for (const message of [
      'Could not parse (Maximum call stack size exceeded while reading)',
      'failed at Object.parse (/work/node_modules/x/index.js:10:5)',
      'x is not a function',
      'bad value undefined',
    ]) {
      expect(senderReason(message)).toBe(GENERIC_UNREADABLE);
    }
  });
});
