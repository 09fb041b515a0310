// The manual's links hold: every relative link and #anchor in README.md and docs/**/*.md reaches a
// file and a heading that exist (anchors as GitHub makes them from headings), and every pointer into
// the docs from the code (src, bin, packages/sandbox/src and bin, scripts, bench) names a page that exists,
// and a heading of it when it names one: `docs/x.md#anchor`, `docs/x.md, "Heading"` or
// `docs/x.md ("Heading")`. No code names a README section (`README "Heading"`): the README is the
// front door and changes; pointers go into docs/ by file and heading.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** Targets allowed to be missing while another branch adds them (none now). */
const PENDING = new Set<string>();

function walk(dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => !/\/(node_modules|dist)\//.test(path) && statSync(path).isFile() && keep(path));
}

const MARKDOWN = [join(ROOT, 'README.md'), ...walk(join(ROOT, 'docs'), (path) => path.endsWith('.md'))];
const CODE = [
  ...['', join('packages', 'sandbox')].flatMap((pkg) => [
    ...walk(join(ROOT, pkg, 'src'), () => true),
    ...walk(join(ROOT, pkg, 'bin'), () => true),
  ]),
  ...walk(join(ROOT, 'scripts'), (path) => /\.(c?js|mjs|ts)$/.test(path)),
  ...walk(join(ROOT, 'bench'), (path) => /\.(c?js|mjs|ts)$/.test(path)),
];

/** Markdown without its fenced code blocks and inline code, where nothing is a link. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: its text, lower case, without punctuation, spaces as hyphens. */
function slug(heading: string): string {
  const plain = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/[`*]/g, '') // code and emphasis markers
    .replace(/(^|\s)_+|_+(\s|$)/g, '$1$2') // _emphasis_, but not snake_case
    .trim()
    .toLowerCase();
  return plain.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();

/** Every anchor of a Markdown file, with GitHub's -1, -2 ... for repeated headings. */
function anchors(file: string): Set<string> {
  const cached = anchorCache.get(file);
  if (cached) return cached;
  const seen = new Map<string, number>();
  const found = new Set<string>();
  const text = readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const [, id] of text.matchAll(/<a (?:name|id)="([^"]+)"/g)) found.add(id);
  anchorCache.set(file, found);
  return found;
}

/** What is wrong with a relative target seen from `from` (a file), or undefined when it holds. */
function problem(from: string, target: string): string | undefined {
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = pathPart === '' ? from : resolve(dirname(from), decodeURIComponent(pathPart));
  const rel = relative(ROOT, file);
  if (PENDING.has(rel)) return undefined;
  if (!existsSync(file)) return `${rel} does not exist`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!file.endsWith('.md')) return `#${anchor} points into ${rel}, which is not Markdown`;
  if (!anchors(file).has(anchor)) return `${rel} has no heading with the anchor #${anchor}`;
  return undefined;
}

/** A named heading (or an anchor) right after a pointer: `#a`, `, "H"`, ` "H"`, ` ("H")`, across a comment's line break. */
function headingAfter(rest: string): { anchor?: string; heading?: string } {
  const joined = rest.replace(/\s*\n\s*(?:\/\/+|\*|#)?\s*/g, ' ');
  const anchor = /^#([\w-]+)/.exec(joined);
  if (anchor) return { anchor: anchor[1] };
  const heading = /^(?:,\s*|\s+\(?)["“]([^"”\n]+)["”]/.exec(joined);
  return heading ? { heading: heading[1] } : {};
}

describe('links in the README and the manual', () => {
  it('finds the Markdown files', () => {
    expect(MARKDOWN.length).toBeGreaterThan(20);
  });

  it('every relative link and #anchor resolves', () => {
    const broken: string[] = [];
    for (const file of MARKDOWN) {
      const text = prose(readFileSync(file, 'utf8'));
      for (const [, target] of text.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and the like
        const wrong = problem(file, target);
        if (wrong) broken.push(`${relative(ROOT, file)}: (${target}): ${wrong}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('GitHub anchors: punctuation dropped, spaces as hyphens, code and links as their text', () => {
    expect(slug('Keys: `kct keys create`, list, revoke')).toBe('keys-kct-keys-create-list-revoke');
    expect(slug('How "charged once" is kept')).toBe('how-charged-once-is-kept');
    expect(slug('5. SQLite drivers')).toBe('5-sqlite-drivers');
    expect(slug('The one V8 flag')).toBe('the-one-v8-flag');
    expect(slug('Supported Node.js versions')).toBe('supported-nodejs-versions');
    expect(slug('[kct](kct.md) and student_id')).toBe('kct-and-student_id');
  });
});

describe('pointers into the docs from the code and the manual', () => {
  const files = [...CODE, ...MARKDOWN];

  it('every docs/<page>.md named exists, with the heading or anchor it names', () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?<![\w/.-])docs\/[\w./-]*?\.md/g)) {
        const page = match[0];
        const where = `${relative(ROOT, file)}:${text.slice(0, match.index).split('\n').length}`;
        if (PENDING.has(page)) continue;
        if (!existsSync(join(ROOT, page))) {
          broken.push(`${where}: ${page} does not exist`);
          continue;
        }
        const { anchor, heading } = headingAfter(text.slice(match.index + page.length, match.index + page.length + 200));
        const wanted = anchor ?? (heading === undefined ? undefined : slug(heading));
        if (wanted !== undefined && !anchors(join(ROOT, page)).has(wanted))
          broken.push(`${where}: ${page} has no heading "${heading ?? `#${anchor}`}"`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the code names no README section: it points into docs/ by file and heading instead', () => {
    const broken: string[] = [];
    for (const file of CODE) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bREADME(?:\.md)?(?:'s)?(?=[\s,(:])/g)) {
        const rest = text.slice(match.index + match[0].length, match.index + match[0].length + 200);
        const { heading } = headingAfter(rest);
        if (heading !== undefined || /^\s*table\b/.test(rest)) {
          broken.push(
            `${relative(ROOT, file)}:${text.slice(0, match.index).split('\n').length}: README ${heading === undefined ? '(its table)' : `"${heading}"`}`,
          );
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
