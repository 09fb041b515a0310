// A library user never typed `kct`: the client's errors carry neutral suggestions, and the CLI's
// hint table (src/cli/core/hints.ts) puts kct's own words (flags, commands) in their place.
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { KctError, type UsageError } from '../../../src/api/errors.js';
import { cliHint, cliWords } from '../../../src/cli/core/hints.js';
import { checkLocalFile, inspectFile, isFileProblem } from '../../../src/client/files.js';
import { checkBaseKey } from '../../../src/client/idempotency.js';
import { ProductClient } from '../../../src/client/product.js';

const dir = mkdtempSync(join(tmpdir(), 'kct-unit-words-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** kct's words: a command, a flag in a message, or one of kct's environment variables. */
const CLI_WORDS =
  /`kct |\bkct (config|models|auth|status|one-pass|batch|credits|result|keys|ingest|assign|evaluate|upload)\b|["'`( ]--[a-z]|\bKCT_[A-Z]/;

async function refusal(promise: Promise<unknown>): Promise<KctError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KctError);
  return error as KctError;
}

describe('the library speaks neutrally, the CLI in its own words', () => {
  it('no string under src/client names a kct command or flag', () => {
    const root = join(import.meta.dirname, '../../../src/client');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
    const found = files.flatMap((name) =>
      readFileSync(join(root, name), 'utf8')
        .split('\n')
        .map((line, index) => ({ where: `${name}:${index + 1}`, line }))
        .filter(({ line }) => !/^\s*(\/\/|\*|\/\*)/.test(line) && CLI_WORDS.test(line)),
    );
    expect(found).toEqual([]);
  });

  it('an empty base key: the client says "leave it out", kct says kct derives one', () => {
    const error = (() => {
      try {
        checkBaseKey('', '--idempotency-key');
      } catch (e) {
        return e as UsageError;
      }
    })()!;
    expect(error.suggestion).toContain("to have one derived from each answer's content");
    expect(cliHint(error)).toBe(
      "Give a key such as class9-essay, or leave out --idempotency-key to have kct derive one from each answer's content. In a script, check that the variable you pass is set.",
    );
  });

  it("a file over the limit and data files in a folder: --pages and --exclude in kct's words only", async () => {
    const big = join(dir, 'scan.pdf');
    writeFileSync(big, '');
    truncateSync(big, 21 * 1024 * 1024);
    const tooBig = await refusal(inspectFile(big));
    expect(tooBig.suggestion).not.toMatch(CLI_WORDS);
    expect(cliHint(tooBig)).toBe(
      'Compress the file (scans: a lower resolution), or split it into pages sent as one answer (kct one-pass --pages; kct evaluate takes the pages as several files).',
    );
    const problems = ['marks.csv', 'run.journal'].map((name) => {
      writeFileSync(join(dir, name), 'x');
      const checked = checkLocalFile(join(dir, name));
      return isFileProblem(checked) ? checked.suggestion : '';
    });
    expect(problems.join('\n')).not.toMatch(CLI_WORDS);
    // every occurrence is worded, as in a refusal naming several files
    expect(cliWords(problems.join('\n'))).toMatch(/--exclude "\*\.csv"\.\n.*--exclude "\*\.journal"\.$/);
  });

  it('a wrong product URL: the productUrl option, or --product-url and kct config', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('https://product.kct.test')
      .intercept({ method: 'POST', path: /public_api/ })
      .reply(404, 'Not Found', { headers: { 'content-type': 'text/plain' } });
    const product = new ProductClient({ productUrl: 'https://product.kct.test', dispatcher: agent, retry: { maxRetries: 0 } });
    try {
      const error = await refusal(product.signIn('user', 'secret-password'));
      expect(error.suggestion).toContain('set it with the productUrl option.');
      expect(cliHint(error)).toContain('set it with --product-url, KCT_PRODUCT_URL or `kct config set product_url`.');
    } finally {
      await product.close();
      await agent.close();
    }
  });
});
