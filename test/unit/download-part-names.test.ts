// The note that names a student's several files sent as one answer names each as the student has
// it: its path within the student's folder (Moodle's "old/v1.txt", not "v1.txt"), and where two
// are named alike (a Canvas student's two uploads of essay.txt) the download's own name for each.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectAnswers } from '../../src/cli/answers/answers.js';
import { downloadInput, openDownload } from '../../src/cli/answers/download.js';
import { quietIO } from './quiet-io.js';
import { zip } from './zip-writer.js';

const TEXT = 'An answer about school uniforms.';

async function notesOf(input: string): Promise<string> {
  const found = downloadInput([input], { groupBy: 'student' });
  if (!found) throw new Error(`${input} is not read as a download`);
  const download = await openDownload(found);
  try {
    const collection = await collectAnswers({ studentIdFrom: 'name', inputs: [input], download }, quietIO());
    return collection.notes.join('\n');
  } finally {
    await download.cleanup();
  }
}

describe("the note of a student's several files", () => {
  it("Moodle: a file in a subfolder of the student's folder is named with that subfolder, and online text by its file", async () => {
    const root = mkdtempSync(join(tmpdir(), 'kct-parts-'));
    const files: Record<string, string> = {
      'dl/Ivy Lee_109_assignsubmission_file_/essay.TXT': TEXT,
      'dl/Ivy Lee_109_assignsubmission_file_/old/v1.txt': `${TEXT} (draft)`,
      'dl/Ada Lovelace_101_assignsubmission_file_/essay.txt': TEXT,
      'dl/Ada Lovelace_101_assignsubmission_onlinetext_/onlinetext.html': '<html><body><p>My online part.</p></body></html>',
      'dl/Bo Chen_102_assignsubmission_file_/essay.txt': `${TEXT} Bo`,
    };
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    const notes = await notesOf(join(root, 'dl'));
    expect(notes).toContain('2 students handed in more than one file or text, sent together as the pages of one answer (');
    expect(notes).toContain('Ivy Lee: essay.TXT, old/v1.txt');
    expect(notes).toContain('Ada Lovelace: essay.txt, onlinetext.html');
  });

  it("Canvas: two uploads of the same name are told apart by the download's names; other names stay short", async () => {
    const root = mkdtempSync(join(tmpdir(), 'kct-parts-'));
    const zipPath = join(root, 'submissions.zip');
    writeFileSync(
      zipPath,
      zip([
        { name: 'chenbo_102_5001_essay.txt', content: Buffer.from(TEXT) },
        { name: 'chenbo_102_5002_essay.txt', content: Buffer.from(`${TEXT} again`) },
        { name: 'doejane_301_9001_essay.txt', content: Buffer.from(`${TEXT} Jane`) },
        { name: 'doejane_301_9002_refs.txt', content: Buffer.from('References.') },
      ]),
    );
    const notes = await notesOf(zipPath);
    expect(notes).toContain('chenbo: chenbo_102_5001_essay.txt, chenbo_102_5002_essay.txt');
    expect(notes).toContain('doejane: essay.txt, refs.txt');
  });
});
