// Hostile files: archives and documents built to exhaust a parser (a zip bomb, "billion laughs",
// nesting a hundred thousand deep, a truncated PDF, a decompression-bomb image, a rubric of a
// third of a million criteria). Each ends in a clean refusal: 400, or a FAILURE whose comment
// says what was wrong in words for the sender; the sandbox keeps answering meanwhile.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { FormData } from 'undici';
import { describe, expect, test } from 'vitest';
import { ensureFixtures, GENERATED } from '../unit/extract-helpers.js';
import { documentXml, docx } from '../unit/zip-writer.js';
import { FULL, INTERNALS, sandboxForFile, sleep, Transcript } from './lib.js';

const MB = 1024 * 1024;
const transcript = new Transcript();
const env = sandboxForFile(transcript, { before: ensureFixtures });

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

function pngBomb(side: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // 1 bit per pixel, greyscale: a tiny file, side x side pixels once decoded
  const row = Buffer.alloc(1 + Math.ceil(side / 8), 0xff);
  row[0] = 0;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: side }, () => row)), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]><w:document ${W}><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>`;
const deepXml = (depth: number) =>
  `<?xml version="1.0"?><w:document ${W}><w:body>${'<w:sdt><w:sdtContent>'.repeat(depth)}<w:p><w:r><w:t>An essay</w:t></w:r></w:p>${'</w:sdtContent></w:sdt>'.repeat(depth)}</w:body></w:document>`;

interface Hostile {
  name: string;
  file: () => Buffer;
  filename: string;
  type: string;
  field?: string;
  /** Words the FAILURE comment must hold (it may also end SUCCESS when `readable`). */
  reason?: RegExp;
  readable?: boolean;
  full?: boolean;
}

/** Sizes: at full size as described; smaller in the slow tier, still past every limit they probe. */
const BOMB_MB = FULL ? 300 : 120;
const LINE_MB = FULL ? 19 : 4;
const CRITERIA = FULL ? 357_000 : 60_000;

const HOSTILE: Hostile[] = [
  {
    name: `a zip bomb (${BOMB_MB} MB of document.xml, its size understated)`,
    file: () => docx(documentXml('x', BOMB_MB * MB), [], 1000),
    filename: 'bomb.docx',
    type: DOCX,
    reason: /too large once unpacked/,
  },
  {
    name: '"billion laughs" entities in document.xml',
    file: () => docx(Buffer.from(laughs)),
    filename: 'laughs.docx',
    type: DOCX,
    reason: /not a readable Word/,
  },
  {
    name: 'document.xml nested 100,000 deep',
    file: () => docx(Buffer.from(deepXml(100_000))),
    filename: 'deep.docx',
    type: DOCX,
    reason: /not a readable Word .* save it again, or send it as PDF or plain text/,
  },
  {
    name: 'a truncated PDF',
    file: () => {
      const pdf = readFileSync(join(GENERATED, 'essay.pdf'));
      return pdf.subarray(0, Math.floor(pdf.length / 2));
    },
    filename: 'truncated.pdf',
    type: 'application/pdf',
    reason: /PDF|text/,
    readable: true,
  },
  {
    name: 'an RTF nested 200,000 groups deep',
    file: () => Buffer.from(`{\\rtf1 ${'{'.repeat(200_000)}An essay${'}'.repeat(200_000)}}`),
    filename: 'deep.rtf',
    type: 'application/rtf',
    reason: /RTF|text/,
    readable: true,
  },
  {
    name: `a ${LINE_MB} MB text file of one line`,
    file: () => Buffer.alloc(LINE_MB * MB, 0x61),
    filename: 'one-line.txt',
    type: 'text/plain',
    reason: /./,
    readable: true,
  },
  {
    name: `a rubric file of ${CRITERIA.toLocaleString('en-US')} criteria`,
    file: () => Buffer.from('Criterion x (5 marks): text\n'.repeat(CRITERIA)),
    filename: 'rubric.txt',
    type: 'text/plain',
    field: 'rubric_file',
    reason: new RegExp(`has ${CRITERIA.toLocaleString('en-US')} criteria; at most 50 can be marked`),
  },
  {
    name: 'a decompression-bomb PNG (20,000 x 20,000 pixels in 76 KB)',
    file: () => pngBomb(20_000),
    filename: 'bomb.png',
    type: 'image/png',
    reason: /no usable text|image|OCR/,
    full: true,
  },
];

async function final(taskId: string): Promise<any> {
  for (;;) {
    const res = await env.client.call(`${env.sb.baseUrl}/evaluations/${taskId}`, { key: env.sb.keys.user });
    if (['SUCCESS', 'FAILURE', 'CANCEL'].includes(res.body.data.status)) return res.body.data;
    await sleep(100);
  }
}

describe('hostile files end cleanly', () => {
  test.each(HOSTILE.filter((h) => FULL || !h.full))('$name', async (h) => {
    const bytes = h.file();
    const form = new FormData();
    form.append('model_id', '12');
    if (h.field) form.append('paper_content', 'An essay about school uniforms, with evidence and a conclusion.');
    form.append(h.field ?? 'answer_file', new Blob([bytes], { type: h.type }), h.filename);
    const accepted = await env.client.call(`${env.sb.baseUrl}/evaluations/one-pass`, { key: env.sb.keys.user, form });
    expect(accepted.status).toBe(202);
    // While the file is worked on, the sandbox answers others.
    expect((await env.client.call(`${env.sb.baseUrl}/credits`, { key: env.sb.keys.org_admin })).status).toBe(200);
    const result = await final(accepted.body.data.task_id);
    if (result.status === 'SUCCESS') {
      expect(h.readable, `${h.name} was marked`).toBe(true);
    } else {
      expect(result.status).toBe('FAILURE');
      expect(result.credits_charged).toBe(0);
      expect(result.message).not.toMatch(INTERNALS);
      expect(result.message).toMatch(h.reason!);
      expect(result.evaluation[0].comment).toBe(result.message);
    }
    // The preview of the same file: 200, or 400 with a reason, never a 5xx or a library's words
    // (in the slow tier, for the rubric file only: each preview reads the file once more).
    if (!FULL && !h.field) return;
    const preview = new FormData();
    preview.append('files', new Blob([bytes], { type: h.type }), h.filename);
    const parsed = await env.client.call(`${env.sb.baseUrl}/rubrics-ingest-preview`, { key: env.sb.keys.user, form: preview });
    expect([200, 400]).toContain(parsed.status);
    if (h.field === 'rubric_file')
      expect(parsed.body.error).toMatchObject({
        code: 'too_many_criteria',
        message: `The files hold ${CRITERIA.toLocaleString('en-US')} criteria; a model holds at most 50. Send the part of the material for one assignment.`,
      });
    expect(parsed.text).not.toMatch(INTERNALS);
  });

  test('a JSON body nested 100,000 deep, and a multipart rubrics field nested as deep: 400 too_deep', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const json = await env.client.call(`${env.sb.baseUrl}/evaluations/one-pass`, {
      key: env.sb.keys.user,
      body: `{"model_id": 12, "paper_content": "x", "rubrics": ${deep}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status).toBe(400);
    expect(json.body.error.code).toBe('too_deep');
    const form = new FormData();
    form.append('model_id', '12');
    form.append('paper_content', 'An essay.');
    form.append('rubrics', deep);
    const multipart = await env.client.call(`${env.sb.baseUrl}/evaluations/one-pass`, { key: env.sb.keys.user, form });
    expect(multipart.status).toBe(400);
    expect(multipart.body.error.code).toBe('too_deep');
  });
});
