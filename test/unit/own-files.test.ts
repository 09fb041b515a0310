// own-files.ts: the files a command writes are known by device and inode, a match confirmed by the
// exact (bigint) id, and one found in a student folder is said as such in its EMPTY row's reason.
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { collectAnswers } from '../../src/cli/answers/answers.js';
import { OwnFiles } from '../../src/cli/answers/own-files.js';
import { planAnswers } from '../../src/cli/answers/plan.js';
import type { IO } from '../../src/cli/core/io.js';

const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() } as unknown as IO;

describe("the command's own files", () => {
  it('are matched only by their exact id: a file whose number id merely matches (NTFS ids past 2^53) is not taken', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kct-own-'));
    writeFileSync(join(dir, 'run.journal'), 'kct');
    writeFileSync(join(dir, 'essay.txt'), 'An answer.');
    const own = OwnFiles.of([{ path: join(dir, 'run.journal'), what: 'the --resume journal' }], io);
    const journal = statSync(join(dir, 'run.journal'));
    expect(own.whatOf(join(dir, 'run.journal'), journal)).toBe('the --resume journal');
    // the essay given the journal's number id, as a rounded one would be: its own exact id says otherwise
    expect(own.whatOf(join(dir, 'essay.txt'), journal)).toBeUndefined();
    expect(new OwnFiles().whatOf(join(dir, 'run.journal'), journal)).toBeUndefined();
  });

  it("found alone in a student folder: the folder's EMPTY row says so, not 'a hidden, system or Markdown file'", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'kct-own-')), 'class');
    mkdirSync(join(dir, 'Ana'), { recursive: true });
    mkdirSync(join(dir, 'Bo'));
    writeFileSync(join(dir, 'Ana', 'essay.txt'), 'An answer.');
    writeFileSync(join(dir, 'Bo', 'run.journal'), 'kct');
    const collection = await collectAnswers(
      {
        inputs: [dir],
        studentIdFrom: 'folder',
        own: OwnFiles.of([{ path: join(dir, 'Bo', 'run.journal'), what: 'the --resume journal' }], io),
      },
      io,
    );
    expect(collection.skipped.map((row) => [row.status, row.reason])).toEqual([
      ['EMPTY', 'nothing to mark in this folder: 1 file this command writes'],
    ]);
    expect(collection.notes).toContain('not answers: Bo/run.journal (the --resume journal): this command writes it');
  });

  it('two files whose number ids merely match (NTFS ids rounded past 2^53) are two answers, not one file reached twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kct-own-'));
    const [a, b] = [join(dir, 'a.txt'), join(dir, 'b.txt')];
    writeFileSync(a, 'One answer.');
    writeFileSync(b, 'Another answer.');
    const first = statSync(a);
    // b's stat as a rounded number id would give it: the same as a's
    const rounded = Object.assign(statSync(b), { dev: first.dev, ino: first.ino });
    const collection = await planAnswers(
      [
        { path: a, kind: 'file', keyName: 'a.txt', info: first },
        { path: b, kind: 'file', keyName: 'b.txt', info: rounded },
      ],
      { textAnswers: [], roots: [], sources: { inputs: [a, b] }, explain: false },
    );
    expect(collection.count).toBe(2);
    expect(collection.notes.join('\n')).not.toContain('is the same file as');
    // the same file named twice is still one answer
    const twice = await planAnswers(
      [
        { path: a, kind: 'file', keyName: 'a.txt', info: first },
        { path: a, kind: 'file', keyName: 'a.txt', info: statSync(a) },
      ],
      { textAnswers: [], roots: [], sources: { inputs: [a, a] }, explain: false },
    );
    expect(twice.count).toBe(1);
  });
});
