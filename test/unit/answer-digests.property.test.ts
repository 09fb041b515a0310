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
import type { LocalFile } from '../../src/client/files.js';
import { identityOf } from '../../src/client/identity.js';
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
