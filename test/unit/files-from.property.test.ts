// "No student silently lost", for --files-from: every path a list names is a row (an answer, or a
// row that says why it is not sent), whatever the name. A list once dropped every line that began
// with "#" ("#1 essay.txt": no row, no note, exit 0) and trimmed spaces off names ("draft .txt").
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { collectAnswers, listedPaths } from '../../src/cli/answers/answers.js';
import { propertyRuns, propertySeed } from './property-runs.js';
import { quietIO } from './quiet-io.js';

const io = quietIO();

/** Names as students and platforms give them, among them what a list reader could mistake for syntax. */
const STEMS = ['essay', '#1 essay', '# draft', ' lead', 'trail ', 'two  spaces', ';semi', 'Él', 'tab\there', "O'Brien", '-dash'];
/** Endings: a plain text answer, one the service does not take, and one whose extension ends in a space. */
const ENDINGS = ['.txt', '.txt', '.odt', '.txt '];

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const listing = fc.record({
  names: fc.uniqueArray(fc.tuple(fc.constantFrom(...STEMS), fc.constantFrom(...ENDINGS)), {
    minLength: 1,
    maxLength: 6,
    selector: ([stem, ending]) => stem + ending,
  }),
  // how the list was made: by hand (CRLF, blank lines, Notepad's byte order mark) or by find -print0
  form: fc.constantFrom('lf', 'crlf', 'blank lines', 'nul', 'notepad'),
});

describe('--files-from accounts for every path it lists (property)', () => {
  it(`every listed file is a row, once, whatever its name (seed ${propertySeed(11)})`, async () => {
    await fc.assert(
      fc.asyncProperty(listing, async ({ names, form }) => {
        const dir = mkdtempSync(join(tmpdir(), 'kct-files-from-'));
        dirs.push(dir);
        const paths = names.map(([stem, ending], i) => {
          const path = join(dir, stem + ending);
          writeFileSync(path, `Answer ${i}: uniforms make school fairer.\n`);
          return path;
        });
        const text =
          form === 'nul'
            ? `${paths.join('\0')}\0`
            : form === 'crlf'
              ? `${paths.join('\r\n')}\r\n`
              : form === 'notepad'
                ? `\uFEFF${paths.join('\r\n')}\r\n`
                : form === 'blank lines'
                  ? `\n${paths.join('\n\n')}\n  \n`
                  : paths.join('\n');
        expect(listedPaths(text)).toEqual(paths);
        const list = join(dir, 'list');
        writeFileSync(list, text);
        const collection = await collectAnswers({ inputs: [], filesFrom: list, skipUnsupported: true }, io).catch((error: Error) => error);
        // a list of nothing that can be sent stops the run, out loud ("nothing to mark")
        if (collection instanceof Error) {
          expect(
            names.every(([, ending]) => ending !== '.txt'),
            collection.message,
          ).toBe(true);
          return;
        }
        const rows = [...[...collection.answers()].map((answer) => answer.label), ...collection.skipped.map((row) => row.label)];
        expect(rows.sort()).toEqual([...paths].sort());
        expect(collection.rows).toBe(paths.length);
      }),
      { seed: propertySeed(11), numRuns: propertyRuns(40) },
    );
  });

  it('names a listed path that is not there as written, quoted when spaces begin or end it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kct-files-from-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'trail.txt '), 'An answer.\n');
    const list = join(dir, 'list');
    writeFileSync(list, `${join(dir, 'trail.txt')}\n`);
    const error = await collectAnswers({ inputs: [], filesFrom: list }, io).catch((thrown: Error & { suggestion?: string }) => thrown);
    expect(error).toBeInstanceOf(Error);
    const { message, suggestion } = error as Error & { suggestion?: string };
    expect(message).toContain(`file not found: ${join(dir, 'trail.txt')}`);
    expect(suggestion).toContain(`Check the path: ${JSON.stringify(join(dir, 'trail.txt '))} is there.`);
  });
});
