// The class both class-run suites mark (test/integration/class-one-pass.test.ts and the killed run
// of test/e2e/killed-run.test.ts), the shape of its rows, and a small folder of text answers.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, GENERATED, tempDir } from './harness.js';

export interface Row {
  file: string;
  student_id: string | null;
  task_id: string | null;
  status: string;
  score: number | null;
  credits_charged: number | null;
  evaluation: { item: string; score: number }[] | null;
  duplicate_of?: string;
}

export const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');

/** 30 answers: 20 TXT (varied), 5 PDF, 5 DOCX, all with different names, and a Markdown file left out. */
export function makeClass(): string {
  const dir = tempDir('kct-class-');
  const sentences = essay.split(/(?<=\.)\s+/);
  for (let i = 1; i <= 20; i++) {
    writeFileSync(join(dir, `student-${String(i).padStart(2, '0')}.txt`), sentences.slice(0, 3 + i).join(' '));
  }
  for (let i = 21; i <= 25; i++) copyFileSync(join(GENERATED, 'essay.pdf'), join(dir, `student-${i}.pdf`));
  for (let i = 26; i <= 30; i++) copyFileSync(join(GENERATED, 'essay.docx'), join(dir, `student-${i}.docx`));
  // left out and counted on stderr: a file of a type that cannot be sent would stop the run (new-rules.test.ts)
  writeFileSync(join(dir, 'notes.md'), 'teacher notes: Markdown in a folder is never sent');
  return dir;
}

/** A folder with one text answer per name, each unique to the folder (so never a replay), with `extra` appended (a magic input). */
export function textFolder(names: string[], extra = ''): string {
  const dir = tempDir('kct-batch-');
  for (const name of names) writeFileSync(join(dir, `${name}.txt`), `${essay}\n${name} ${dir} ${extra}`);
  return dir;
}
