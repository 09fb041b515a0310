// make-folders.ts: the folders made on the way to a path, each known, so that a command can remove
// exactly those again (kct models new stopped early) and say which one could not be made.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FolderError, makeFolders } from '../../../src/cli/core/make-folders.js';

describe('makeFolders', () => {
  it('makes each missing folder, and returns them the shallowest first; none for a folder that is there', () => {
    const root = mkdtempSync(join(tmpdir(), 'kct-make-folders-'));
    expect(makeFolders(join(root, 'a', 'b', 'c'))).toEqual([join(root, 'a'), join(root, 'a', 'b'), join(root, 'a', 'b', 'c')]);
    expect(makeFolders(join(root, 'a', 'b'))).toEqual([]);
  });

  it('"x/../y/z" makes y and y/z only, as they are spelled resolved (Node\'s recursive mkdir returned "x")', () => {
    const root = mkdtempSync(join(tmpdir(), 'kct-make-folders-'));
    const made = makeFolders(relative(process.cwd(), join(root, 'x', '..', 'y', 'z')));
    expect(made).toEqual([join(root, 'y'), join(root, 'y', 'z')]);
  });

  it('names the folder of the way that could not be made', () => {
    const root = mkdtempSync(join(tmpdir(), 'kct-make-folders-'));
    writeFileSync(join(root, 'file'), '');
    let thrown: FolderError | undefined;
    try {
      makeFolders(join(root, 'file', 'sub'));
    } catch (error) {
      thrown = error as FolderError;
    }
    expect(thrown?.code).toBe('ENOTDIR');
    expect(thrown?.folder).toBe(join(root, 'file', 'sub'));
  });
});
