// Every command that asks something on a terminal (a key, a password, a yes, models new's steps),
// run where it may not ask: stdin piped, or CI set on a terminal. Each is bad usage (exit 2,
// docs/guides/exit-codes.md), whatever it would have asked, and its hint names the flag or variable
// that answers instead. Every pair of command and situation is run (a dozen), so none is sampled.
import { describe, expect, it } from 'vitest';
import { kctEnv, parseJson, runKct, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

/** Each command that would ask, with what its hint must name to answer without a terminal. */
const ASKING: [args: string[], answeredBy: RegExp][] = [
  [['auth', 'login'], /--with-key/],
  [['keys', 'list', '--account', 'user'], /--password-stdin.*KCT_PASSWORD/],
  [['keys', 'create', '--scope', 'user', '--account', 'user'], /--password-stdin.*KCT_PASSWORD/],
  [['keys', 'revoke', '7', '--yes', '--account', 'user'], /--password-stdin.*KCT_PASSWORD/],
  [['keys', 'revoke', '7', '--account', 'user'], /--yes/],
  [['models', 'new', 'paper.pdf', '--rubric', 'rubric.docx'], /kct models create .*--yes/],
];

/** Where nothing may be asked: stdin (and stderr) not a terminal; CI set on a terminal. */
const SITUATIONS: [name: string, tty: boolean, env: Record<string, string | undefined>][] = [
  ['piped', false, { CI: undefined }],
  ['CI set on a terminal', true, { CI: '1' }],
];

describe('a command that needs a terminal and has none', () => {
  for (const [args, answeredBy] of ASKING) {
    for (const [situation, tty, extra] of SITUATIONS) {
      it(`kct ${args.join(' ')} (${situation}): exit 2, naming what answers instead`, async () => {
        const env = kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: undefined, ...extra });
        const run = await runKct([...args, '--json'], { env, tty });
        expect(run.code, run.stderr).toBe(2);
        expect(run.stdout).toBe('');
        const { error } = parseJson<{ error: { code: string; exit_code: number; message: string; suggestion: string } }>(run.stderr);
        expect(error).toMatchObject({ code: 'usage', exit_code: 2 });
        expect(error.message).toMatch(tty ? /CI is set/ : /standard input is not a terminal/);
        expect(error.suggestion).toMatch(answeredBy);
      });
    }
  }
});
