// The one V8 flag kct sets (bin/flags.cjs): --optimize-for-size for client commands, none for
// `kct sandbox`, whatever global flags come first; the executable's copy of the rule is the same.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const ROOT = join(import.meta.dirname, '..', '..');
const { v8FlagsFor } = require(join(ROOT, 'packages', 'kct', 'bin', 'flags.cjs')) as { v8FlagsFor: (args: string[]) => string[] };

describe('the V8 flag of the client', () => {
  it.each([
    [['sandbox'], []],
    [['sandbox', '--port', '0'], []],
    [['--json', 'sandbox'], []],
    [['-p', 'school', '--base-url', 'http://x/v1', 'sandbox'], []],
    [['one-pass', 'class/', '--model', '12'], ['--optimize-for-size']],
    [['--profile', 'sandbox', 'credits'], ['--optimize-for-size']],
    [[], ['--optimize-for-size']],
  ])('%j: %j', (args, flags) => {
    expect(v8FlagsFor(args)).toEqual(flags);
  });

  it('the single-file executable carries the same rule', () => {
    const rule = (text: string) =>
      text.slice(text.indexOf('/** Global flags that take a value'), text.indexOf('function v8FlagsFor')).trim();
    expect(rule(readFileSync(join(ROOT, 'scripts', 'exe', 'main.cjs'), 'utf8'))).toBe(
      rule(readFileSync(join(ROOT, 'packages', 'kct', 'bin', 'flags.cjs'), 'utf8')),
    );
  });
});
