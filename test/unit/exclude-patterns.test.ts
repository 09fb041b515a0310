// --exclude leaves out exactly what its pattern names, relative to the folder given, as a
// property over generated trees and patterns (fast-check, seeded, shrinking): a pattern with a
// slash ("West/10C/**", "x/*/a.txt", "**/drafts/**") is matched against the path, one without
// ("*.odt", "drafts") against each name at any depth. Each file of the tree is sent unless an
// oracle written here from the pattern's meaning says it is excluded. (Patterns with a slash once
// excluded nothing: picomatch's basename option does not apply them to the path.)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { collectAnswers } from '../../src/cli/answers/answers.js';
import { makeIO } from './memory-io.js';
import { propertyRuns, propertySeed } from './property-runs.js';

const { io } = makeIO();

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const FOLDERS = ['West', '10C', 'drafts', 'North High', 'Zoë'];
const FILES = ['essay.txt', 'a.txt', 'final draft.txt', 'notes.odt'];

/** A tree of relative file paths: up to three folders deep. */
const tree = fc.uniqueArray(
  fc
    .tuple(fc.array(fc.constantFrom(...FOLDERS), { maxLength: 3 }), fc.constantFrom(...FILES))
    .map(([folders, file]) => [...folders, file].join('/')),
  { minLength: 1, maxLength: 12 },
);

type Pattern =
  | { kind: 'under'; folder: string } // F/**
  | { kind: 'children'; folder: string } // F/*: what F holds, folders with all in them
  | { kind: 'any-folder'; name: string } // **/N/**
  | { kind: 'in-subfolder'; folder: string; file: string } // F/*/name
  | { kind: 'extension'; ext: string } // *.ext
  | { kind: 'name'; name: string }; // a name at any depth: a file, or a folder and all in it

const glob = (p: Pattern): string =>
  p.kind === 'under'
    ? `${p.folder}/**`
    : p.kind === 'children'
      ? `${p.folder}/*`
      : p.kind === 'any-folder'
        ? `**/${p.name}/**`
        : p.kind === 'in-subfolder'
          ? `${p.folder}/*/${p.file}`
          : p.kind === 'extension'
            ? `*${p.ext}`
            : p.name;

/** What the pattern means, for a file at `rel` (its folders and name joined by /). */
function excludes(p: Pattern, rel: string): boolean {
  const parts = rel.split('/');
  const folders = parts.slice(0, -1);
  const name = parts[parts.length - 1];
  switch (p.kind) {
    case 'under':
      return rel.startsWith(`${p.folder}/`);
    case 'children':
      // each thing in F, and so a folder in it with all it holds (as .gitignore reads it)
      return rel.startsWith(`${p.folder}/`);
    case 'any-folder':
      return folders.includes(p.name);
    case 'in-subfolder':
      return rel.startsWith(`${p.folder}/`) && parts.length === p.folder.split('/').length + 2 && name === p.file;
    case 'extension':
      return name.endsWith(p.ext);
    case 'name':
      return parts.includes(p.name);
  }
}

/** Patterns made from the tree's own folders and names, so that most of them name something. */
function patternsOf(paths: string[]): fc.Arbitrary<Pattern> {
  const folderPaths = [
    ...new Set(
      paths.flatMap((p) =>
        p
          .split('/')
          .slice(0, -1)
          .map((_, i, all) => all.slice(0, i + 1).join('/')),
      ),
    ),
  ];
  const folder = fc.constantFrom(...(folderPaths.length > 0 ? folderPaths : ['West']));
  return fc.oneof(
    folder.map((f): Pattern => ({ kind: 'under', folder: f })),
    folder.map((f): Pattern => ({ kind: 'children', folder: f })),
    fc.constantFrom(...FOLDERS).map((name): Pattern => ({ kind: 'any-folder', name })),
    fc.tuple(folder, fc.constantFrom(...FILES)).map(([f, file]): Pattern => ({ kind: 'in-subfolder', folder: f, file })),
    fc.constantFrom('.txt', '.odt').map((ext): Pattern => ({ kind: 'extension', ext })),
    fc.constantFrom(...FOLDERS, ...FILES).map((name): Pattern => ({ kind: 'name', name })),
  );
}

describe('--exclude', () => {
  it('a pattern that starts with ! (a negation: everything else) is refused, saying what to do', async () => {
    await expect(collectAnswers({ inputs: [tmpdir()], exclude: ['!drafts/**'] }, io)).rejects.toThrow(
      /starts with ! would leave out everything/,
    );
  });

  it(`property: a file is left out exactly when a pattern names it, with or without a slash (seed ${propertySeed(5311)})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        tree.chain((paths) => fc.tuple(fc.constant(paths), fc.array(patternsOf(paths), { minLength: 1, maxLength: 2 }))),
        // a path pattern written from the folder's root: "/West/**" and "./West/**" are "West/**"
        fc.constantFrom('', './', '/'),
        async ([paths, patterns], root) => {
          const dir = mkdtempSync(join(tmpdir(), 'kct-exclude-'));
          made.push(dir);
          const top = join(dir, 'class');
          for (const [i, rel] of paths.entries()) {
            mkdirSync(join(top, ...rel.split('/').slice(0, -1)), { recursive: true });
            writeFileSync(join(top, ...rel.split('/')), `An answer about uniforms, number ${i}.`);
          }
          const collection = await collectAnswers(
            {
              inputs: [top],
              recursive: true,
              exclude: patterns.map(glob).map((g) => (g.includes('/') && !g.startsWith('*') ? root + g : g)),
              skipUnsupported: true,
            },
            io,
            { explain: true },
          ).catch((error: Error) => error);
          const kept = paths.filter((rel) => !patterns.some((p) => excludes(p, rel)));
          const sendable = kept.filter((rel) => rel.endsWith('.txt'));
          if (collection instanceof Error) {
            // nothing left to mark is refused as such
            expect(sendable, collection.message).toEqual([]);
            return;
          }
          const sent = collection.entries
            .filter((entry) => entry.action === 'send')
            .map((entry) => relative(top, entry.path).split(sep).join('/'))
            .sort();
          expect(sent, `--exclude ${patterns.map(glob).join(' --exclude ')}`).toEqual([...sendable].sort());
        },
      ),
      { numRuns: propertyRuns(80), seed: propertySeed(5311) },
    );
  });
});
