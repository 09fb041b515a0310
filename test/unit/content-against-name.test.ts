// A file whose first bytes are not what its name says is refused before anything is sent, naming
// what it holds (src/client/file-content.ts): a text file named .docx was sent, failed at the
// service, and was sent again on every re-run. Property over every pairing of name and content;
// and no real answer of the fixtures is refused.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractTxt } from '../../packages/sandbox/src/engines/extract/txt.js';
import { checkLocalFile, isFileProblem } from '../../src/client/files.js';
import { propertyRuns, propertySeed } from './property-runs.js';

const GENERATED = join(import.meta.dirname, '..', 'fixtures', 'generated');
const dir = mkdtempSync(join(tmpdir(), 'kct-file-content-'));

/** Each kind of content, and the extensions that name it truly. */
const CONTENTS: Record<string, { bytes: Buffer; names: string[] }> = {
  text: { bytes: Buffer.from('Uniforms are good because they make students equal.\n'), names: ['.txt'] },
  latin1: { bytes: Buffer.from('Caf\xe9 essay, na\xefve and r\xe9sum\xe9.\n', 'latin1'), names: ['.txt'] },
  utf16: { bytes: Buffer.from('\ufeffAn essay in UTF-16.\n', 'utf16le'), names: ['.txt'] },
  pdf: { bytes: readFileSync(join(GENERATED, 'essay.pdf')), names: ['.pdf'] },
  docx: { bytes: readFileSync(join(GENERATED, 'essay.docx')), names: ['.docx'] },
  rtf: { bytes: readFileSync(join(GENERATED, 'essay.rtf')), names: ['.rtf'] },
  png: { bytes: readFileSync(join(GENERATED, 'essay.png')), names: ['.png'] },
  jpeg: { bytes: Buffer.concat([Buffer.of(0xff, 0xd8, 0xff, 0xe0), Buffer.alloc(64, 1)]), names: ['.jpg', '.jpeg'] },
  gif: { bytes: Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), names: ['.gif'] },
  webp: { bytes: Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(32, 2)]), names: ['.webp'] },
  binary: { bytes: Buffer.of(0, 1, 2, 3, 0, 5, 6, 7), names: [] },
  // an iPhone's photo renamed .jpg: no answer type at all
  heic: { bytes: Buffer.concat([Buffer.of(0, 0, 0, 24), Buffer.from('ftypheic'), Buffer.alloc(16)]), names: [] },
};
const EXTENSIONS = ['.txt', '.pdf', '.docx', '.rtf', '.png', '.jpg', '.jpeg', '.gif', '.webp'];
let made = 0;

describe("a file's content against its name", () => {
  it(`is refused before sending exactly when they disagree, naming what it holds (seed ${propertySeed(5151)})`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(CONTENTS)), fc.constantFrom(...EXTENSIONS), (kind, extension) => {
        const path = join(dir, `answer-${made++}${extension}`);
        writeFileSync(path, CONTENTS[kind].bytes);
        const checked = checkLocalFile(path);
        const agrees = CONTENTS[kind].names.includes(extension);
        expect(isFileProblem(checked), `${kind} named ${extension}`).toBe(!agrees);
        if (isFileProblem(checked)) {
          expect(checked.kind).toBe('unsupported');
          expect(checked.message).toMatch(/is named as .+ but holds /);
          expect(checked.suggestion).not.toBe('');
        }
      }),
      { numRuns: propertyRuns(120), seed: propertySeed(5151) },
    );
  });

  it('refuses no answer file of the fixtures', () => {
    for (const name of readdirSync(GENERATED).filter((file) => /\.(txt|pdf|docx|rtf|png)$/.test(file))) {
      const checked = checkLocalFile(join(GENERATED, name));
      expect(isFileProblem(checked) ? checked.message : 'ok', name).toBe('ok');
    }
  });

  it('says what to do with an iPhone photo named .jpg: convert it', () => {
    const path = join(dir, 'photo.jpg');
    writeFileSync(path, CONTENTS.heic.bytes);
    const checked = checkLocalFile(path);
    expect(isFileProblem(checked) && checked.message).toMatch(/named as a JPEG image but holds an HEIC photo/);
    expect(isFileProblem(checked) && checked.suggestion).toMatch(/Convert it to JPEG or PNG/);
  });

  it('says a file whose name gives no type but which holds text is text: rename it to <name>.txt', () => {
    const path = join(dir, 'grace');
    writeFileSync(path, CONTENTS.text.bytes);
    const checked = checkLocalFile(path);
    expect(isFileProblem(checked) && checked.kind).toBe('unsupported');
    expect(isFileProblem(checked) && checked.suggestion).toBe(
      "It holds plain text: rename it to grace.txt (an answer's type comes from its name), or leave it out.",
    );
    expect(isFileProblem(checked) && checked.ownHint).toBe(true);
  });

  it(`advises a rename to .txt exactly when a name that gives no type holds text (seed ${propertySeed(5152)})`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(CONTENTS)), fc.constantFrom('', '.final', '.essay', '.bak', '.xyz'), (kind, extension) => {
        const path = join(dir, `untyped-${made++}${extension}`);
        writeFileSync(path, CONTENTS[kind].bytes);
        const checked = checkLocalFile(path);
        expect(isFileProblem(checked), `${kind} named ${extension}`).toBe(true);
        const text = ['text', 'latin1', 'utf16'].includes(kind);
        const advice = isFileProblem(checked) ? checked.suggestion : '';
        expect(advice.includes(`rename it to untyped-${made - 1}${extension}.txt`), `${kind}: ${advice}`).toBe(text);
      }),
      { numRuns: propertyRuns(80), seed: propertySeed(5152) },
    );
  });

  it(`property: a .txt file is refused as binary before sending exactly when the sandbox would refuse it as binary (seed ${propertySeed(5153)})`, async () => {
    // kct once refused only a NUL, the sandbox a tenth of control bytes too: 300 random bytes were sent and ended FAILURE
    const controlled = fc.array(fc.integer({ min: 1, max: 255 }), { minLength: 1, maxLength: 400 }).map((bytes) => Buffer.from(bytes));
    const text = fc
      .tuple(fc.stringMatching(/^[A-Za-z ,.\n]{20,300}$/), fc.array(fc.integer({ min: 1, max: 31 }), { maxLength: 40 }))
      .map(([words, controls]) => Buffer.concat([Buffer.from(words), Buffer.from(controls)]));
    await fc.assert(
      fc.asyncProperty(fc.oneof(controlled, text), async (bytes) => {
        const path = join(dir, `answer-${made++}.txt`);
        writeFileSync(path, bytes);
        const checked = checkLocalFile(path);
        const refusedHere = isFileProblem(checked) && checked.message.includes('binary data, not text');
        const refusedThere = await extractTxt(path).then(
          () => false,
          (error: Error) => error.message.includes('binary data'),
        );
        expect(refusedHere, bytes.toString('hex')).toBe(refusedThere);
      }),
      { numRuns: propertyRuns(200), seed: propertySeed(5153) },
    );
  });
});
