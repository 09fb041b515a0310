// Under --resume, a file whose content changed since the journal's run is sent as a new answer, and
// kct says so. A copy (the same content as another file of the run) once left no trace of its name
// in the journal, so an edited copy was sent and charged without a word. Over generated folders
// with copies and edits, against a real sandbox.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

describe('--resume after edits', () => {
  it('property: every file edited since the journal was written is said to have changed', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        // which of a few texts each file holds (a number seen twice is a copy), and which files are edited
        fc.array(fc.record({ pick: fc.nat(2), edited: fc.boolean() }), { minLength: 2, maxLength: 5 }),
        async (files) => {
          const tag = `resume edits ${runs++} ${Date.now()}`;
          const dir = tempDir('kct-resume-edits-');
          const journal = join(tempDir('kct-resume-journal-'), 'marks.journal');
          const names = files.map((_, i) => join(dir, `pupil-${i + 1}.txt`));
          files.forEach(({ pick }, i) => writeFileSync(names[i], `Uniforms limit expression, answer ${pick} (${tag}).\n`));
          const command = ['one-pass', dir, '--model', '12', '--resume', journal, '--output', 'ndjson'];
          const first = await shared.kct(command);
          expect(first.code, first.stderr).toBe(0);
          files.forEach(({ edited }, i) => {
            if (edited) writeFileSync(names[i], `Uniforms limit expression, edited ${i} (${tag}).\n`);
          });
          const again = await shared.kct(command);
          expect(again.code, again.stderr).toBe(0);
          files.forEach(({ edited }, i) => {
            const said = again.stderr.includes(`${names[i]} changed since the last run`);
            expect(said, `${names[i]} edited: ${edited}\n${again.stderr}`).toBe(edited);
          });
        },
      ),
      {
        examples: [
          [
            [
              { pick: 0, edited: false },
              { pick: 0, edited: true },
            ],
          ],
        ],
        numRuns: 1 + propertyRuns(4),
        seed: propertySeed(4714),
      },
    );
  });
});
