// Every install command README.md and docs/ give, found in their text, and which test runs it
// (issue 36). test/unit/install-docs.test.ts checks that each is claimed by a test and that a
// package the registry lacks is named only with words saying so; test/e2e/install-docs.test.ts
// runs each kind on a clean prefix. docs/commands (generated from --help), docs/design and
// docs/benchmarks.md (records of how something was measured) are not instructions, and left out.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');

/**
 * Names on no registry yet, checked against the npm registry on 2026-11-29 (`npm view <name>`:
 * E404), and again by test/e2e/install-docs.test.ts outside CI. A doc may name them only beside
 * words that say so (UNPUBLISHED_WORDS).
 */
export const UNPUBLISHED = ['kct', 'kct-sandbox'];
/** Registry packages the docs install that are published (checked the same way). */
export const PUBLISHED = ['node'];
export const UNPUBLISHED_WORDS = /once (?:\w+ (?:is|are) )?published|\(not yet\)|not on the (?:npm )?registry yet/i;

/** How a test runs a command: the kinds test/e2e/install-docs.test.ts (or the quick start's test) runs. */
export type Kind =
  | 'clone' // npm install (or ci), npm link, npx kct in a clone: test/e2e/quick-start.test.ts
  | 'pack' // npm run pack
  | 'kct' // kct's tarball, globally
  | 'both' // kct's and kct-sandbox's tarballs, globally, in one command
  | 'project' // kct's tarball into a project
  | 'npx' // npx of kct's tarball
  | 'runtime'; // a Node.js runtime from the registry's `node` package, as .ci/run installs node@22 and node@24

export interface InstallCommand {
  file: string;
  line: number;
  command: string;
  /** The command's line with its comment, or for one in running text, its paragraph. */
  context: string;
  kind?: Kind;
  /** Registry packages it names (bare names, not paths or flags). */
  names: string[];
}

const SCANNED = (): string[] => [
  'README.md',
  ...markdown(join(ROOT, 'docs'))
    .map((path) => relative(ROOT, path))
    .filter((path) => !/^docs\/(commands|design)\//.test(path) && path !== 'docs/benchmarks.md'),
];

function markdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdown(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );
}

/** An install command: npm install / i / link / ci, npm run pack, or npx of a package (not a clone's dev tool). */
const COMMAND = /^(npm (?:install|i|ci|link|run pack)\b|npx (?!vitest\b))/;

export function installCommands(): InstallCommand[] {
  const found: InstallCommand[] = [];
  const add = (file: string, line: number, command: string, context: string) =>
    found.push({ file, line, command, context, kind: kindOf(command, context), names: registryNames(command) });
  for (const file of SCANNED()) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    let inCode = false;
    let paragraph: { start: number; text: string[] } | undefined;
    const endParagraph = () => {
      // running text: each `code span` that is a command, with its paragraph, which says what it is
      const text = paragraph?.text.join(' ') ?? '';
      for (const [, span] of text.matchAll(/`([^`]+)`/g)) if (COMMAND.test(span.trim())) add(file, paragraph!.start, span.trim(), text);
      paragraph = undefined;
    };
    lines.forEach((text, index) => {
      if (text.startsWith('```')) {
        endParagraph();
        inCode = !inCode;
        return;
      }
      if (inCode) {
        // a line of a block, its comment cut off (a YAML step's `run: ` or `- ` before it)
        const command = text
          .replace(/\s+#.*$/, '')
          .replace(/^\s*(?:- |run: |\s)*(?:run: )?/, '')
          .trim();
        if (COMMAND.test(command)) add(file, index + 1, command, text);
        return;
      }
      if (text.trim() === '') return endParagraph();
      paragraph ??= { start: index + 1, text: [] };
      paragraph.text.push(text.trim());
    });
    endParagraph();
  }
  return found;
}

const TARBALL = (name: string) => String.raw`\./(?:[\w.-]+/)?${name}-\d+\.\d+\.\d+\.tgz`;
const GLOBAL = 'npm install (?:-g|--global)';
const ALLOW = String.raw`--allow-scripts=better-sqlite3,tesseract\.js`;

/** Which test runs a command; undefined when none does. */
export function kindOf(command: string, context: string): Kind | undefined {
  const published = !UNPUBLISHED_WORDS.test(context) || !/\b(kct|kct-sandbox)\b/.test(registryNames(command).join(' '));
  if (/^npm (install|link|ci)$/.test(command) || command === 'npm link --ignore-scripts') return 'clone';
  if (/^npx kct\b/.test(command) && /clone/i.test(context) && published) return 'clone';
  if (command === 'npm run pack') return 'pack';
  if (new RegExp(`^${GLOBAL} ${ALLOW} ${TARBALL('kct')} ${TARBALL('kct-sandbox')}$`).test(command)) return 'both';
  if (new RegExp(`^${GLOBAL} ${TARBALL('kct')}$`).test(command)) return 'kct';
  if (new RegExp(`^npm install ${TARBALL('kct')}$`).test(command)) return 'project';
  if (/^npm install --prefix \S+ node@\d+$/.test(command)) return 'runtime';
  // the registry's forms, once published: what each will do is what its tarball form does
  if (new RegExp(`^${GLOBAL} ${ALLOW} kct kct-sandbox$`).test(command)) return 'both';
  if (/^npm install (-g|--global) kct$/.test(command)) return 'kct';
  if (command === 'npm install kct') return 'project';
  if (/^npx kct --help$/.test(command)) return 'npx';
  return undefined;
}

/** The registry packages a command names: arguments that are neither flags nor paths nor a flag's value. */
export function registryNames(command: string): string[] {
  const words = command.split(/\s+/);
  if (words[0] === 'npx') return words[1] && !words[1].startsWith('-') ? [words[1]] : [];
  if (words[1] !== 'install' && words[1] !== 'i') return [];
  const names: string[] = [];
  for (let at = 2; at < words.length; at += 1) {
    const word = words[at];
    if (word === '--prefix') at += 1;
    else if (!word.startsWith('-') && !/^[.~/]/.test(word)) names.push(word.replace(/(.)@.*$/, '$1'));
  }
  return names;
}
