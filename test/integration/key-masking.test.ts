// The key is never printed (issue 11, item 5): every command's unknown-option error, the argument
// parser's own message included, masks a value shaped like a key, with and without --json.
// In-process: main() over the test IO, one run per command path and form.

import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { kctEnv, runKct, tempDir } from './harness.js';

const SECRET = 'kct_live_9f8e7d6c5b4a3210SECRET';

/** Every command path of the CLI, walked from its command tree. */
async function commandPaths(): Promise<string[][]> {
  const { buildProgram } = (await import('../../src/cli/core/program.js')) as unknown as {
    buildProgram: (version: string, onContext: () => never) => Command;
  };
  const program = buildProgram('0.0.0', () => {
    throw new Error('no command runs here');
  });
  const paths: string[][] = [];
  const visit = (command: Command, path: string[]) => {
    for (const sub of command.commands) {
      const next = [...path, sub.name()];
      paths.push(next);
      visit(sub, next);
    }
  };
  visit(program, []);
  return paths;
}

describe('a key-shaped value in an error', () => {
  it("is masked on every command's unknown-option path, with and without --json", async () => {
    const paths = await commandPaths();
    expect(paths.length).toBeGreaterThan(25);
    const env = kctEnv(tempDir());
    const shown: string[] = [];
    // a few at a time: ~35 commands, each run several ways
    for (let i = 0; i < paths.length; i += 4) {
      await Promise.all(
        paths.slice(i, i + 4).map(async (path) => {
          for (const args of [
            [...path, `--api-key=${SECRET}`],
            [...path, '--json', `--api-key=${SECRET}`],
            [...path, `--key=${SECRET.slice(0, 12)}`],
          ]) {
            const run = await runKct(args, { env });
            expect(run.code, `kct ${args.join(' ')}`).toBe(2);
            const output = run.stdout + run.stderr;
            if (output.includes('kct_live') || output.includes('SECRET')) shown.push(`kct ${args.join(' ')}: ${output}`);
          }
        }),
      );
    }
    expect(shown).toEqual([]);
  }, 240_000);

  it("is masked where commander echoes an option value, and in kct's own messages", async () => {
    const env = kctEnv(tempDir());
    const choice = await runKct(['one-pass', '--style', SECRET, '--text', 'x'], { env });
    expect(choice.code).toBe(2);
    expect(choice.stderr).toContain("argument '[redacted]' is invalid");
    const model = await runKct(['one-pass', '--model', SECRET, '--text', 'x'], {
      env: { ...env, KCT_BASE_URL: 'http://127.0.0.1:9/v1', KCT_API_KEY: 'kct_x' },
    });
    expect(model.code).toBe(2);
    expect(model.stderr).not.toContain('SECRET');
    const unknown = await runKct([SECRET], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).not.toContain('SECRET');
  });
});
