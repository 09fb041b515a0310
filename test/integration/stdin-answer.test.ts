// An answer piped in (`kct one-pass - < essay.txt`) is text. A PDF, a Word document or binary data
// piped in is refused before anything is sent, by the rule a file named .txt is checked with (it was
// marked SUCCESS from its internals, and charged); UTF-16 text, as Windows' Notepad saves it, is read
// as the text it is.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { creditsOf, parseJson, ROOT, useSandbox } from './harness.js';

const shared = useSandbox();

const ESSAY = 'Uniforms should be optional, because choosing what to wear teaches responsibility. For example, surveys show it.';

describe('an answer on standard input', () => {
  it('a PDF, a Word document or random bytes piped in: exit 2, nothing sent, nothing charged, the file named instead', async () => {
    const before = await creditsOf(shared.kct);
    for (const [bytes, held] of [
      [readFileSync(join(ROOT, 'examples', 'question-paper.pdf')), 'a PDF document'],
      [readFileSync(join(ROOT, 'examples', 'question-paper.docx')), 'a zip archive'],
      [Buffer.from([0, 1, 2, 3, 250, 251, 0, 0, 7, 8, 9, 200, 0, 11]), 'binary data'],
    ] as const) {
      const run = await shared.kct(['one-pass', '-', '--model', '12', '--output', 'csv'], { input: bytes });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`standard input holds ${held}`);
      expect(run.stderr).toContain('Name the file instead');
      expect(run.stdout).toBe('');
    }
    expect(await creditsOf(shared.kct)).toBe(before);
  });

  it(`text in UTF-8 or UTF-16 (either byte order) is the same answer: marked once, charged once (seed ${propertySeed(6101)})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom('utf8', 'utf8-bom', 'utf16le', 'utf16be'), { minLength: 2, maxLength: 4 }),
        async (encodings) => {
          const text = `${ESSAY} ${Math.random()}`;
          const encoded = (encoding: string) => {
            if (encoding === 'utf8') return Buffer.from(text, 'utf8');
            if (encoding === 'utf8-bom') return Buffer.from(`\uFEFF${text}`, 'utf8');
            const le = Buffer.from(`\uFEFF${text}`, 'utf16le');
            return encoding === 'utf16le' ? le : Buffer.from(le).swap16();
          };
          const tasks = new Set<string>();
          for (const encoding of encodings) {
            const run = await shared.kct(['one-pass', '-', '--model', '12', '--json'], { input: encoded(encoding) });
            expect(run.code, `${encoding}: ${run.stderr}`).toBe(0);
            tasks.add(parseJson<{ task_id: string }>(run.stdout).task_id);
          }
          expect([...tasks]).toHaveLength(1);
        },
      ),
      { numRuns: propertyRuns(4), seed: propertySeed(6101) },
    );
  }, 120_000);
});
