// kct version, and the man pages rendered at build time from the command tree: one per command,
// listed exactly in package.json's `man`, valid roff that man(1) renders.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson, ROOT, runKct } from './harness.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; man: string[] };
const manDir = join(ROOT, 'dist', 'man');
const helpCache = JSON.parse(readFileSync(join(ROOT, 'dist', 'help-cache.json'), 'utf8')) as {
  help: Record<string, string>;
};

describe('kct version', () => {
  it('prints the version with Node.js and the platform; --json for scripts', async () => {
    const text = await runKct(['version']);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`kct ${pkg.version} (Node.js ${process.versions.node}, ${process.platform}-${process.arch})\n`);
    const json = parseJson<Record<string, string>>((await runKct(['version', '--json'])).stdout);
    expect(json).toEqual({ version: pkg.version, node: process.versions.node, platform: process.platform, arch: process.arch });
    expect((await runKct(['--version'])).stdout.trim()).toBe(pkg.version);
    // --json asks for JSON on stdout, with the flag as with the command
    for (const args of [
      ['--version', '--json'],
      ['--json', '-V'],
    ])
      expect(parseJson((await runKct(args)).stdout)).toEqual(json);
  });
});

describe('man pages', () => {
  const pages = readdirSync(manDir).sort();

  it('one page per command of the help, and package.json lists exactly them', () => {
    const expected = Object.keys(helpCache.help)
      .map((path) => `${['kct', ...path.split(' ').filter(Boolean)].join('-')}.1`)
      .sort();
    expect(pages).toEqual(expected);
    expect(pkg.man, 'run: node scripts/build-man.js --update-package-json').toEqual(pages.map((name) => `./dist/man/${name}`));
  });

  it('each page is valid roff with the sections a man page has', () => {
    for (const page of pages) {
      const text = readFileSync(join(manDir, page), 'utf8');
      expect(text, page).toMatch(/^\.TH "KCT[A-Z-]*" "1" "" "kct [\d.]+" "kct manual"\n/);
      for (const section of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'EXIT STATUS'])
        expect(text, `${page}: ${section}`).toContain(`.SH ${section}\n`);
    }
    const groff = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', ...pages.map((page) => join(manDir, page))], { encoding: 'utf8' });
    if (groff.error) return; // no groff on this machine: the structure above is what can be checked
    expect(groff.stderr).toBe('');
    expect(groff.status).toBe(0);
  });

  it('kct-one-pass(1) lists the flags with their choices and the examples', () => {
    const rendered = spawnSync('man', ['-l', join(manDir, 'kct-one-pass.1')], {
      encoding: 'utf8',
      env: { ...process.env, MANWIDTH: '100', MAN_KEEP_FORMATTING: '', PAGER: 'cat' },
    });
    const text = rendered.error
      ? readFileSync(join(manDir, 'kct-one-pass.1'), 'utf8')
          .replace(/\\-/g, '-')
          .replace(/\\f[BIR]/g, '')
      : rendered.stdout.replace(/.\x08/g, '');
    expect(text).toMatch(/kct-one-pass +- mark answers/);
    expect(text).toMatch(/--output <format>\s+Output format \(one of: table, json, ndjson, csv\)/);
    expect(text).toMatch(/--style <style>\s+Feedback style \(one of: Bullet, Short, Long\)/);
    expect(text).toContain('$ kct one-pass essay.pdf --model 12');
    const root = readFileSync(join(manDir, 'kct.1'), 'utf8');
    expect(root).toContain('.SH ENVIRONMENT');
    expect(root).toContain('.B 130\ninterrupted');
    expect(root).toContain('.BR kct\\-one\\-pass (1)');
  });
});
