import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(root, 'test', 'fixtures');
export const GENERATED = join(FIXTURES, 'generated');

const NEEDED = ['essay.pdf', 'essay.docx', 'essay.rtf', 'essay-latin1.txt', 'essay.png', 'scanned.pdf', 'blank.pdf', 'corrupt.pdf',
  'graded-strong.pdf', 'graded-ragged.pdf', 'graded-middling.docx', 'graded-paragraphs.rtf'];

/** `npm test` builds the fixtures first; a lone `vitest run` builds them here. */
export function ensureFixtures(): void {
  if (NEEDED.some((name) => !existsSync(join(GENERATED, name)))) {
    execFileSync(process.execPath, [join(root, 'scripts', 'make-fixtures.js')], { stdio: 'inherit' });
  }
}

/** Lower-case words of 3+ letters, for comparing OCR output with the source without its noise. */
export function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z\u00e0-\u00ff]{3,}/g) ?? []);
}

/** Share of the source's distinct words that came back. */
export function recall(source: string, got: string): number {
  const want = words(source);
  const have = words(got);
  let hit = 0;
  for (const w of want) if (have.has(w)) hit++;
  return want.size === 0 ? 1 : hit / want.size;
}
