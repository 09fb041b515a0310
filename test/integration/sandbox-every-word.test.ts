// Issue 21, item 4: the real case. essay-middling.docx has 212 words, a pros/cons table among
// them; the sandbox used to mark 182 of them (the table but one cell) and say "only 182 words".
// Every word is marked now, and what is left out on purpose is named in the result's not_marked.
import { openAsBlob, readFileSync } from 'node:fs';
import { join } from 'node:path';
import mammoth from 'mammoth';
import { FormData } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { extractText } from '../../packages/sandbox/src/engines/extract/index.js';
import { readAnswer } from '../../packages/sandbox/src/engines/grading/document.js';
import { MIME } from '../../src/api/limits.js';
import { ensureFixtures, FIXTURES, GENERATED } from '../unit/extract-helpers.js';
import { sandboxForFile } from '../unit/sandbox-helpers.js';

const sb = sandboxForFile();
beforeAll(() => ensureFixtures());
const MIDDLING = join(GENERATED, 'essay-middling.docx');
/** The table's cells, from the source the fixture is made from ("| a | b |" lines). */
const cells = readFileSync(join(FIXTURES, 'essay-middling.txt'), 'utf8')
  .split('\n')
  .filter((l) => l.startsWith('|'))
  .flatMap((l) =>
    l
      .split('|')
      .map((c) => c.trim())
      .filter(Boolean),
  );

/** Marks a DOCX on model 12 (400 to 600 words asked) and returns its result record. */
async function mark(path: string): Promise<any> {
  const form = new FormData();
  form.append('model_id', '12');
  form.append('answer_file', await openAsBlob(path, { type: MIME.docx }), 'essay.docx');
  const res = await sb.call('POST', '/evaluations/one-pass', { form });
  expect(res.status).toBe(202);
  const done = await sb.waitFor(res.body.data.task_id, sb.keys.user);
  expect(done.status).toBe('SUCCESS');
  return (await sb.call('GET', `/evaluations/${res.body.data.task_id}`)).body.data;
}

describe('essay-middling.docx: a Word essay with a pros/cons table', () => {
  it('is 212 words to mammoth, and every one of them is marked: each table cell, a row per line', async () => {
    const raw = (await mammoth.extractRawText({ path: MIDDLING })).value;
    expect(raw.split(/\s+/).filter(Boolean)).toHaveLength(212);
    const { body, excluded } = await extractText(MIDDLING, MIME.docx);
    expect(cells).toHaveLength(10);
    for (const cell of cells) expect(body).toContain(cell);
    expect(body).toContain('Pros | Cons\nLess bullying about clothes | Blazers cost a lot');
    expect(excluded).toEqual([]);
    expect(readAnswer(body, undefined).wordCount).toBeGreaterThanOrEqual(212);
  });

  it('is marked as 212 words: the feedback no longer says "only 182 words", and nothing is named as left out', async () => {
    const result = await mark(MIDDLING);
    const feedback = result.evaluation.map((e: { feedback: string }) => e.feedback).join('\n');
    expect(feedback).not.toMatch(/\b182 words\b/);
    expect(feedback).toMatch(/\b212 words\b/);
    expect(result.not_marked).toEqual([]);
  });

  it('names what a document leaves out on purpose in not_marked: its title, header and footer', async () => {
    const result = await mark(join(GENERATED, 'graded-middling.docx'));
    expect(result.not_marked).toEqual([
      { kind: 'title', text: 'School Uniforms' },
      { kind: 'page_furniture', text: 'Year 9 English: persuasive writing' },
      { kind: 'page_furniture', text: 'Page' },
    ]);
  });
});
