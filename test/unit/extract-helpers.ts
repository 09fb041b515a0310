import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { closeExtractors } from '../../packages/sandbox/src/engines/extract/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(root, 'test', 'fixtures');
export const GENERATED = join(FIXTURES, 'generated');

const NEEDED = [
  'essay.pdf',
  'essay.docx',
  'essay.rtf',
  'essay-latin1.txt',
  'essay.png',
  'scanned.pdf',
  'essay-opening.png',
  'scanned-opening.pdf',
  'blank.pdf',
  'corrupt.pdf',
  'graded-strong.pdf',
  'graded-ragged.pdf',
  'graded-middling.docx',
  'graded-paragraphs.rtf',
  'essay-middling.docx',
  'misspelt-uniforms.docx',
];

/** `npm test` builds the fixtures first; a lone `vitest run` builds them here. */
export function ensureFixtures(): void {
  if (NEEDED.some((name) => !existsSync(join(GENERATED, name)))) {
    execFileSync(process.execPath, [join(root, 'scripts', 'make-fixtures.js')], { stdio: 'inherit' });
  }
}

/**
 * An extractor test file's set-up: the fixtures and a scratch folder before its tests; after them
 * the folder deleted and the extractors' workers stopped. Returns a writer of scratch files.
 */
export function extractorFiles(prefix: string): (name: string, data: string | Buffer) => string {
  let tmp = '';
  beforeAll(() => {
    ensureFixtures();
    tmp = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    rmSync(tmp, { recursive: true, force: true });
    await closeExtractors();
  });
  return (name, data) => {
    const path = join(tmp, name);
    writeFileSync(path, data);
    return path;
  };
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
