// The command reference of the manual (docs/commands/) and the environment table of
// docs/guides/configuration-and-keys.md are rendered from the built command tree and
// cli/core/environment.ts by scripts/build-docs.js; the committed files must be exactly what it renders.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS_DIR, expectedDocs } from '../../scripts/build-docs.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIX = 'the manual is out of step with the code: run `npm run build` (or `node scripts/build-docs.js` after a build) and commit docs/';

describe('the command reference', () => {
  it('is built from the command tree (npm run build has run)', () => {
    expect(existsSync(join(ROOT, 'dist', 'cli', 'core', 'program.js')), 'run `npm run build` first').toBe(true);
  });

  it('every generated file is committed as rendered, and no page is left of a command that is gone', async () => {
    const expected = await expectedDocs();
    const stale: string[] = [];
    for (const [path, content] of expected) {
      const file = join(ROOT, path);
      if (!existsSync(file) || readFileSync(file, 'utf8') !== content) stale.push(path);
    }
    const pages = readdirSync(join(ROOT, COMMANDS_DIR))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `${COMMANDS_DIR}/${name}`);
    const orphans = pages.filter((path) => !expected.has(path));
    expect({ stale, orphans }, FIX).toEqual({ stale: [], orphans: [] });
  });

  it('has one page per command of the help, named as the man pages are', async () => {
    const help = JSON.parse(readFileSync(join(ROOT, 'dist', 'help-cache.json'), 'utf8')) as {
      help: Record<string, string>;
    };
    const fromHelp = Object.keys(help.help)
      .map((path) => `${COMMANDS_DIR}/${['kct', ...path.split(' ').filter(Boolean)].join('-')}.md`)
      .sort();
    const pages = [...(await expectedDocs()).keys()].filter((path) => /\/kct(-[^/]*)?\.md$/.test(path)).sort();
    expect(pages).toEqual(fromHelp);
  });

  it('the environment table lists exactly the variables kct declares', async () => {
    const { VARIABLES } = await import('../../src/cli/core/environment.js');
    const guide = readFileSync(join(ROOT, 'docs', 'guides', 'configuration-and-keys.md'), 'utf8');
    const table = guide.slice(guide.indexOf('<!-- environment variables'), guide.indexOf('Conventions kct follows'));
    const listed = [...table.matchAll(/^\| `(KCT_[A-Z0-9_]+)` \|/gm)].map((match) => match[1]);
    expect(listed.sort(), FIX).toEqual(Object.keys(VARIABLES).sort());
  });
});
