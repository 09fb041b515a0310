// A folder holding a platform's download zip (saved beside its worksheet, as a browser does) is no
// class folder, and the zip no archive to unpack: kct reads that zip itself when it is named
// alone, so the hint of the refusal (or the SKIPPED row's reason) names that command, never
// "Unpack the archive first" (unpacking it in place leads to a second refusal). A zip that is no
// download keeps the old hint. The hint is truthful: the zip it names opens as the download it says.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { collectAnswers } from '../../src/cli/answers/answers.js';
import { openDownload } from '../../src/cli/answers/download.js';
import { shellWord } from '../../src/cli/core/shell-word.js';
import { generatedDownload, partsOf } from './platforms/generated-downloads.js';
import { propertyRuns, propertySeed } from './property-runs.js';
import { quietIO } from './quiet-io.js';
import { zip } from './zip-writer.js';

const io = quietIO();
const CONTENTS = {
  answer: (pick: number) => Buffer.from(`An answer ${pick}.`),
  onlineText: (pick: number) => Buffer.from(`<p>Text ${pick}.</p>`),
};

async function refusal(inputs: string[], skipUnsupported = false): Promise<UsageError> {
  const error = await collectAnswers({ inputs, skipUnsupported }, io).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

/** Downloads/ as a browser leaves it: the platform's zip and its grade file. */
function downloadsFolder(zipName: string, parts: Parameters<typeof zip>[0]): { folder: string; zipPath: string } {
  const folder = mkdtempSync(join(tmpdir(), 'kct-downloads-'));
  const zipPath = join(folder, zipName);
  writeFileSync(zipPath, zip(parts));
  writeFileSync(join(folder, `Grades-${zipName.replace(/\.zip$/, '')}.csv`), 'Identifier,Full name,Grade\n');
  return { folder, zipPath };
}

describe('a download zip in the folder named', () => {
  it('a Moodle download: the hint names kct one-pass with the zip, not "Unpack the archive first"', async () => {
    const { folder, zipPath } = downloadsFolder('ENG9-Persuasive essay-12345.zip', [
      { name: 'Ada Lovelace_101_assignsubmission_file_/essay.txt', content: Buffer.from('An answer.') },
      { name: 'Bo Chen_102_assignsubmission_onlinetext_/onlinetext.html', content: Buffer.from('<p>Another.</p>') },
    ]);
    const error = await refusal([folder]);
    expect(error.message).toContain(`unsupported file type for ${zipPath}`);
    expect(error.suggestion).toContain(
      `${zipPath}: It is a Moodle download, which kct reads itself (no need to unpack it), one answer per student: kct one-pass ${shellWord(zipPath)} --model <id>.`,
    );
    expect(error.suggestion).not.toContain('Unpack');
    // the grade file beside it keeps its own hint
    expect(error.suggestion).toContain('.csv: A data file, not an answer');
  });

  it('--skip-unsupported: its SKIPPED row says the same', async () => {
    const { folder, zipPath } = downloadsFolder('submissions.zip', [
      { name: 'doejane_5001_7001_essay.txt', content: Buffer.from('An answer.') },
      { name: 'roebob_LATE_5002_text.html', content: Buffer.from('<p>Another.</p>') },
    ]);
    writeFileSync(join(folder, 'essay.txt'), 'An answer of its own.');
    const collection = await collectAnswers({ inputs: [folder], skipUnsupported: true }, io);
    const row = collection.skipped.find((skipped) => skipped.label === zipPath);
    expect(row?.reason).toContain(
      `It is a Canvas download, which kct reads itself (no need to unpack it), one answer per student: kct one-pass ${shellWord(zipPath)}`,
    );
  });

  it('a zip of other files keeps the hint to unpack it', async () => {
    const { folder } = downloadsFolder('answers.zip', [{ name: 'essay.txt', content: Buffer.from('An answer.') }]);
    const error = await refusal([folder]);
    expect(error.suggestion).toContain('Unpack the archive first, then send the files inside it.');
    expect(error.suggestion).not.toContain('kct one-pass');
  });

  it('generated downloads: the zip the hint names opens as the download the hint says (property)', async () => {
    await fc.assert(
      fc.asyncProperty(generatedDownload, async (d) => {
        const { folder, zipPath } = downloadsFolder('Essay 1-12345.zip', partsOf(d, CONTENTS));
        const error = await refusal([folder]);
        const platform = d.platform === 'moodle' ? 'Moodle' : 'Canvas';
        expect(error.suggestion).toContain(`It is a ${platform} download, which kct reads itself`);
        expect(error.suggestion).toContain(`kct one-pass ${shellWord(zipPath)} --model <id>`);
        const download = await openDownload({ input: zipPath, kind: 'zip' });
        try {
          expect(download.platform).toBe(d.platform);
        } finally {
          await download.cleanup();
        }
      }),
      { numRuns: propertyRuns(20), seed: propertySeed(6206) },
    );
  });
});
