// Files as Windows and Excel save them: UTF-16 (Notepad's "Unicode", PowerShell's lists) is read as
// the text it is; Windows-1252 ("ANSI", Excel's "CSV (Comma delimited)") is refused by name before
// anything is sent, never guessed at or sent garbled and charged; a Word document named .txt is
// refused in a batch as in one-pass.
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asUser, creditsOf, parseJson, ROOT, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

const ESSAY = 'The café rule matters, and it’s important: uniforms should be optional, because choosing teaches responsibility.';
/** The essay in Windows-1252: é and ’ are single bytes there, invalid as UTF-8. */
const cp1252 = (text: string) => Buffer.from([...text].map((c) => (c === '’' ? 0x92 : c.charCodeAt(0))));
const utf16 = (text: string) => Buffer.from(`\uFEFF${text}`, 'utf16le');

function folder(files: Record<string, Buffer | string>): string {
  const dir = tempDir('kct-windows-');
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  return dir;
}

describe('files saved by Windows and Excel', () => {
  it('kct batch: a Windows-1252 answer and a Word document named .txt are refused by name, nothing sent or charged', async () => {
    const tag = `${Date.now()} refused`;
    const dir = folder({ 'ansi.txt': cp1252(`${ESSAY} ${tag}`), 'fine.txt': `${ESSAY} ${tag} fine` });
    copyFileSync(join(ROOT, 'examples', 'rubric.docx'), join(dir, 'word.txt'));
    writeFileSync(join(dir, 'm.csv'), 'file,student_id\r\nansi.txt,s1\r\nword.txt,s2\r\nfine.txt,s3\r\n');
    const before = await creditsOf(shared.kct);
    const run = await shared.kct(['batch', join(dir, 'm.csv'), '--model', '12', '--output', 'csv']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('ansi.txt is not UTF-8 text (perhaps saved as Windows-1252, "ANSI")');
    expect(run.stderr).toContain('word.txt is named as a text file but holds a zip archive');
    expect(run.stderr).toContain('nothing was sent');
    expect(await creditsOf(shared.kct)).toBe(before);
  });

  it('kct batch: a UTF-16 answer is the text it holds, the same answer as its UTF-8 copy (sent once)', async () => {
    const text = `${ESSAY} ${Date.now()} utf-16`;
    const dir = folder({ 'notepad.txt': utf16(text), 'plain.txt': text });
    writeFileSync(join(dir, 'm.csv'), 'file,student_id\r\nnotepad.txt,s1\r\nplain.txt,s2\r\n');
    const before = await creditsOf(shared.kct);
    const run = await shared.kct(['batch', join(dir, 'm.csv'), '--model', '12', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => parseJson<{ student_id: string; duplicate_of?: string; status: string }>(line));
    expect(rows.map((row) => [row.student_id, row.status, row.duplicate_of])).toEqual([
      ['s1', 'SUCCESS', undefined],
      ['s2', 'SUCCESS', 'notepad.txt'],
    ]);
    expect(before - (await creditsOf(shared.kct))).toBe(1);
  });

  it('a CSV manifest as European Excel saves it (";", "Student ID" headers, CRLF, BOM) is read as its columns say', async () => {
    const tag = Date.now();
    const dir = folder({ 'ana.txt': `${ESSAY} ${tag} semicolons` });
    // a pasted essay's paragraphs in a quoted cell: the separator is told from the header
    writeFileSync(
      join(dir, 'm.csv'),
      `\uFEFFFile;Student ID;Paper Content\r\n;s-pasted;"${ESSAY}; pasted ${tag}\r\n\r\nA second paragraph; because."\r\nana.txt;s-ana;\r\n`,
    );
    const run = await shared.kct(['batch', join(dir, 'm.csv'), '--model', '12', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => parseJson<{ student_id: string; status: string }>(line));
    expect(rows.map((row) => [row.student_id, row.status]).sort()).toEqual([
      ['s-ana', 'SUCCESS'],
      ['s-pasted', 'SUCCESS'],
    ]);
  });

  it('a CSV manifest saved as ANSI or as UTF-16 is refused by name, with the way to save it', async () => {
    const dir = folder({ 'a.txt': `${ESSAY} ${Date.now()} manifest` });
    writeFileSync(join(dir, 'ansi.csv'), Buffer.concat([Buffer.from('file,student_id\r\na.txt,'), cp1252('Chloé'), Buffer.from('\r\n')]));
    writeFileSync(join(dir, 'unicode.csv'), utf16('file\tstudent_id\r\na.txt\ts1\r\n'));
    const before = await creditsOf(shared.kct);
    const ansi = await shared.kct(['batch', join(dir, 'ansi.csv'), '--model', '12']);
    expect(ansi.code, ansi.stderr).toBe(2);
    expect(ansi.stderr).toContain('ansi.csv is not UTF-8 text (perhaps Excel saved it as "CSV (Comma delimited)"');
    expect(ansi.stderr).toContain('Save it again as "CSV UTF-8"');
    const unicode = await shared.kct(['batch', join(dir, 'unicode.csv'), '--model', '12']);
    expect(unicode.code, unicode.stderr).toBe(2);
    expect(unicode.stderr).toContain('unicode.csv is saved as UTF-16');
    expect(await creditsOf(shared.kct)).toBe(before);
  });

  it('kct one-pass - of Windows-1252 text: refused (exit 2), the file to name instead', async () => {
    const before = await creditsOf(shared.kct);
    const run = await shared.kct(['one-pass', '-', '--model', '12'], { input: cp1252(`${ESSAY} ${Date.now()} stdin`) });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('standard input is not UTF-8 text');
    expect(run.stderr).toContain('Name the file instead');
    expect(await creditsOf(shared.kct)).toBe(before);
  });

  it('--files-from a list saved as UTF-16 (PowerShell, Notepad): each line a path, as in UTF-8', async () => {
    const tag = Date.now();
    const dir = folder({ 'ana.txt': `${ESSAY} ${tag} ana`, 'ben.txt': `${ESSAY} ${tag} ben` });
    const list = join(dir, 'list.txt');
    writeFileSync(list, utf16(`${join(dir, 'ana.txt')}\r\n${join(dir, 'ben.txt')}\r\n`));
    const run = await shared.kct(['one-pass', '--files-from', list, '--model', '12', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    const files = run.stdout
      .trim()
      .split('\n')
      .map((line) => parseJson<{ file: string }>(line).file)
      .sort();
    expect(files).toEqual([join(dir, 'ana.txt'), join(dir, 'ben.txt')]);
  });

  it('a saved run a spreadsheet saved again (ANSI, UTF-16, ";"): kct report (and kct grades, which reads it by the same readSavedRun) refuses it by name, writing nothing', async () => {
    const dir = folder({ 'zoe.txt': `${ESSAY} ${Date.now()} saved` });
    const run = await shared.kct(['one-pass', join(dir, 'zoe.txt'), '--model', '12', '--student-id', 'Zoë Müller', '--output', 'csv']);
    expect(run.code, run.stderr).toBe(0);
    const saved = {
      'ansi.csv': cp1252(run.stdout),
      'unicode.csv': utf16(run.stdout),
      'semicolons.csv': run.stdout.replaceAll(',', ';'),
      'ansi.ndjson': Buffer.concat([
        Buffer.from('{"file":"a.txt","status":"SUCCESS","score":3,"student_id":"'),
        cp1252('Zoë'),
        Buffer.from('"}\n'),
      ]),
    };
    const said = {
      'ansi.csv': 'is not UTF-8 text (a spreadsheet saved it again',
      'unicode.csv': 'is saved as UTF-16',
      'semicolons.csv': 'is separated by ";"',
      'ansi.ndjson': 'is not UTF-8 text (a spreadsheet saved it again',
    };
    for (const [name, bytes] of Object.entries(saved)) {
      writeFileSync(join(dir, name), bytes);
      const out = join(dir, `${name}.html`);
      const report = await shared.kct(['report', join(dir, name), '--out', out]);
      expect(report.code, `${name}: ${report.stderr}`).toBe(2);
      expect(report.stderr).toContain(`${name} ${said[name as keyof typeof said]}`);
      expect(report.stderr).toContain('CSV UTF-8');
      expect(existsSync(out)).toBe(false);
    }
  });

  it('an essay saved as UTF-16 is its text when it goes as text, and its bytes when it goes as a file: a save on another machine is never a 409', async () => {
    const tag = `${Date.now()} machines`;
    const utf8 = folder({ 'essay.txt': `${ESSAY} ${tag}`, 'rubric.txt': 'Argument: 10 marks. Evidence: 10 marks.' });
    const unicode = folder({ 'essay.txt': utf16(`${ESSAY} ${tag}`), 'rubric.txt': utf16('Argument: 10 marks. Evidence: 10 marks.') });
    const before = await creditsOf(shared.kct);
    for (const rubric of [[], ['--rubric-file']]) {
      // each save on a machine of its own (a state folder of its own): only the service's keys meet
      for (const dir of [utf8, unicode]) {
        const kct = asUser(shared.sandbox, 'user', tempDir());
        const args = [
          'one-pass',
          join(dir, 'essay.txt'),
          '--model',
          '12',
          ...(rubric.length ? [...rubric, join(dir, 'rubric.txt')] : []),
          '--json',
        ];
        const run = await kct(args);
        expect(run.code, run.stderr).toBe(0);
        expect(parseJson<{ status: string }>(run.stdout).status).toBe('SUCCESS');
      }
    }
    // as text the two saves are one answer (charged once); with a rubric file each goes as its file, its bytes its own
    expect(before - (await creditsOf(shared.kct))).toBe(3);
  });
});
