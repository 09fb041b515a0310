// The install commands of README.md and docs/ (test/install-commands.ts finds them): each is run by
// a test, and a package the npm registry lacks is named only with words saying so. No network: the
// registry's answer is the committed list UNPUBLISHED, which test/e2e/install-docs.test.ts checks
// against the registry outside CI.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installCommands, kindOf, PUBLISHED, ROOT, registryNames, UNPUBLISHED, UNPUBLISHED_WORDS } from '../install-commands.js';

const commands = installCommands();
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('the install commands of README.md and docs/', () => {
  it('are found: the README and the install guide give the tarballs, together, in one command', () => {
    const where = (file: string) => commands.filter((c) => c.file === file).map((c) => c.kind);
    expect(where('README.md')).toEqual(expect.arrayContaining(['clone', 'pack', 'both']));
    expect(where('docs/guides/install.md')).toEqual(expect.arrayContaining(['pack', 'both', 'kct', 'project']));
    expect(commands.length).toBeGreaterThan(10);
  });

  it('each is one a test runs (test/e2e/install-docs.test.ts, or the quick start for a clone)', () => {
    const unclaimed = commands.filter((c) => c.kind === undefined).map((c) => `${c.file}:${c.line}: ${c.command}`);
    expect(unclaimed, 'add a kind to test/install-commands.ts and run it in test/e2e/install-docs.test.ts').toEqual([]);
  });

  it('a package the registry lacks is named only with words saying so', () => {
    // in a clone, npx runs the clone's own kct: nothing is fetched
    const fetching = commands.filter((c) => c.kind !== 'clone');
    const unsaid = fetching
      .filter((c) => c.names.some((name) => UNPUBLISHED.includes(name)) && !UNPUBLISHED_WORDS.test(c.context))
      .map((c) => `${c.file}:${c.line}: ${c.command}`);
    expect(unsaid, 'say "once published (not yet)" beside it, or give the tarball').toEqual([]);
    const unknown = fetching.flatMap((c) => c.names.filter((name) => !UNPUBLISHED.includes(name) && !PUBLISHED.includes(name)));
    expect(unknown, 'check the name on the registry (npm view <name>) and list it in test/install-commands.ts').toEqual([]);
  });

  it("the tarballs' names carry this version", () => {
    const stale = commands.flatMap((c) =>
      [...c.command.matchAll(/kct(?:-sandbox)?-(\d+\.\d+\.\d+)\.tgz/g)].filter((m) => m[1] !== version),
    );
    expect(stale.map((m) => m[0])).toEqual([]);
  });

  it('tells the kinds apart, and an unmarked registry name from a marked one', () => {
    expect(kindOf('npm install -g --allow-scripts=better-sqlite3,tesseract.js ./kct-1.2.3.tgz ./kct-sandbox-1.2.3.tgz', '')).toBe('both');
    expect(kindOf('npm install -g ./kct-sandbox-1.2.3.tgz', '')).toBeUndefined(); // alone, it cannot find its peer kct
    expect(kindOf('npm install -g --allow-scripts=better-sqlite3,tesseract.js kct kct-sandbox', 'once published (not yet)')).toBe('both');
    expect(kindOf('npm install -g kct kct-sandbox', 'once published (not yet)')).toBeUndefined(); // npm would list their install scripts
    expect(kindOf('npm install -g kct-sandbox', 'once published (not yet)')).toBeUndefined();
    expect(registryNames('npm install --prefix ~/node24 node@24')).toEqual(['node']);
    expect(registryNames('npm install -g --allow-scripts=a,b ./x.tgz kct@0.1.0')).toEqual(['kct']);
    expect(UNPUBLISHED_WORDS.test('npm install -g kct # the CLI')).toBe(false);
  });
});
