// An answer's identity is its content, however it was read (property, seeded, shrinking): a short
// answer's SHA-256 is taken when its folder is checked (read whole then) and carried to the plan,
// so the plan does not read it a second time; a longer one is read by the plan. Over generated
// folders of answers around that size, with repeated contents, the plan's identities are those of
// the bytes on disk, and every answer the check read whole carries its digest.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { collectAnswers } from '../../src/cli/answers/answers.js';
import { HEAD_BYTES } from '../../src/client/file-content.js';
import { inspectFile, type LocalFile } from '../../src/client/files.js';
import { hashFile } from '../../src/client/idempotency.js';
import { identityOf } from '../../src/client/identity.js';
import { onePassRequest, readAndKey } from '../../src/client/one-pass.js';
import { planRun } from '../../src/run/plan.js';
import { makeIO } from './memory-io.js';
import { propertyRuns, propertySeed } from './property-runs.js';

const { io } = makeIO();

const root = mkdtempSync(join(tmpdir(), 'kct-digests-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const fromDisk = async (file: LocalFile) => sha256(readFileSync(file.path));

/** A text answer of about `size` bytes: words, so the content check takes it for text. */
const content = (seed: number, size: number) => `essay ${seed} `.repeat(Math.ceil(size / 8)).slice(0, size);

// sizes on both sides of what the check reads whole, and a content pool small enough to repeat
const answerSpec = fc.record({
  seed: fc.integer({ min: 0, max: 3 }),
  size: fc.oneof(
    fc.integer({ min: 1, max: 64 }),
    fc.integer({ min: HEAD_BYTES - 2, max: HEAD_BYTES + 2 }),
    fc.integer({ min: 1, max: 3 * HEAD_BYTES }),
  ),
});

describe("an answer's identity is its content, however it was read (property)", () => {
  it("the plan's identities are those of the bytes on disk, and a file read whole by the check carries its digest", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(answerSpec, { minLength: 1, maxLength: 8 }), async (specs) => {
        const dir = join(root, `class-${made++}`);
        mkdirSync(dir);
        specs.forEach((spec, i) => writeFileSync(join(dir, `s${i}.txt`), content(spec.seed, spec.size)));
        const collection = await collectAnswers({ inputs: [dir], studentIdFrom: 'name' }, io);
        const answers = [...collection.answers()];
        expect(answers).toHaveLength(specs.length);
        for (const answer of answers) {
          const [file] = answer.files;
          const bytes = readFileSync(file.path);
          if (bytes.length < HEAD_BYTES) expect(file.sha256, `${file.path} (${bytes.length} bytes) was read whole`).toBe(sha256(bytes));
          else expect(file.sha256).toBeUndefined();
        }
        const common = { model_id: 12 };
        const plan = await planRun(answers, collection.rows, { common, rubricFiles: [], questionFiles: [] }, new AbortController().signal);
        for (const answer of answers) {
          const read = await identityOf({ ...common, student_id: 'any' }, [{ field: 'answer_files', file: answer.files[0] }], fromDisk);
          expect(plan.identities.get(answer.index), answer.label).toBe(read);
        }
      }),
      { numRuns: propertyRuns(40), seed: propertySeed(5341) },
    );
  });
});

/** Text as each editor saves it: UTF-8, UTF-8 with its byte order mark (Notepad's "UTF-8 with BOM"), UTF-16 with its mark (Notepad's "Unicode"). */
const SAVES: Record<string, (text: string) => Buffer> = {
  utf8: (text) => Buffer.from(text, 'utf8'),
  'utf8-bom': (text) => Buffer.concat([Buffer.of(0xef, 0xbb, 0xbf), Buffer.from(text, 'utf8')]),
  'utf16le-bom': (text) => Buffer.concat([Buffer.of(0xff, 0xfe), Buffer.from(text, 'utf16le')]),
  'utf16be-bom': (text) => Buffer.concat([Buffer.of(0xfe, 0xff), Buffer.from(text, 'utf16le').swap16()]),
};

describe('a text answer is its text, however it was saved (property)', () => {
  it('a .txt saved as UTF-8, with a BOM or as UTF-16, sent as its text, has the identity of its text pasted (--text, stdin, a manifest); sent as its file, of its bytes; its key is its plan identity either way', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('School ', 'uniforms ', 'café ', 'naïve ', '— ', '日本 ', '😀 ', '\n', 'cost. '), {
          minLength: 1,
          maxLength: 12,
        }),
        // short (read whole by the check), longer (read by the plan), or too long for one read (streamed as its file)
        fc.constantFrom(1, Math.ceil(HEAD_BYTES / 20), Math.ceil((3 * HEAD_BYTES) / 10)),
        fc.constantFrom(...Object.keys(SAVES)),
        // a rubric file beside it: the answer then goes as its file
        fc.boolean(),
        async (words, times, save, withRubric) => {
          const text = `Essay: ${words.join('').repeat(times)}`;
          const dir = join(root, `saved-${made++}`);
          mkdirSync(join(dir, 'class'), { recursive: true });
          writeFileSync(join(dir, 'class', 'essay.txt'), SAVES[save](text));
          writeFileSync(join(dir, 'rubric.txt'), SAVES[save]('Argument: 10 marks. Evidence: 10 marks.'));
          const rubricFiles = withRubric ? [await inspectFile(join(dir, 'rubric.txt'))] : [];
          const collection = await collectAnswers({ inputs: [join(dir, 'class')], studentIdFrom: 'name' }, io);
          const [answer] = [...collection.answers()];
          const common = { model_id: 12 };
          const plan = await planRun([answer], collection.rows, { common, rubricFiles, questionFiles: [] }, new AbortController().signal);
          const read = await readAndKey({ fields: common, answerFiles: answer.files, rubricFiles }, 'derive');
          const files = [
            { field: 'answer_files', file: read.input.answerFiles![0] },
            ...rubricFiles.map((file) => ({ field: 'rubric_files', file })),
          ];
          // one answer, one key: the request's identity is the plan's, whichever way it travels
          expect(await identityOf(common, files, hashFile), save).toBe(plan.identities.get(answer.index));
          const sent = onePassRequest(read.input, read.idempotencyKey, { textAsJson: true }).json as { paper_content?: string } | undefined;
          // as text exactly when it is held (one read) and alone
          expect(sent?.paper_content !== undefined).toBe(read.input.answerFiles![0].data !== undefined && !withRubric);
          if (sent?.paper_content !== undefined) {
            expect(sent.paper_content).toBe(text);
            expect(plan.identities.get(answer.index)).toBe(await identityOf({ ...common, paper_content: text }, [], fromDisk));
          } else if (save !== 'utf8') {
            // its file is sent as its bytes, and its identity is theirs: another save is another request
            const utf8 = await identityOf(
              common,
              [{ field: 'answer_files', file: { ...files[0].file, data: SAVES.utf8(text) } }, ...files.slice(1)],
              hashFile,
            );
            expect(plan.identities.get(answer.index)).not.toBe(utf8);
          }
        },
      ),
      { numRuns: propertyRuns(40), seed: propertySeed(5342) },
    );
  });
});
