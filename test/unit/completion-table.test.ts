// What completion offers for each flag's value, read from the command tree: a flag that names a
// file completes file names, whatever its value is called in the help (<file>, <path>, <csv>...).
import { describe, expect, it } from 'vitest';
import { completionTable } from '../../src/cli/completion/table.js';
import { commandTree } from '../../src/cli/core/command-tree.js';
import { buildProgram } from '../../src/cli/core/program.js';

const table = completionTable(
  commandTree(
    buildProgram('0.0.0', () => {
      throw new Error('completion reads the tree only');
    }),
  ),
);
const kinds = (path: string) => new Map(table.find((entry) => entry.path === path)?.values);

describe('completion of flag values', () => {
  it('one-pass: every flag naming a file to read or write completes files', () => {
    const onePass = kinds('one-pass');
    for (const flag of ['--files-from', '--resume', '--rubric-file', '--question-file', '--report']) {
      expect(onePass.get(flag), flag).toBe('files');
    }
    expect(onePass.get('--model')).toBe('models');
    expect(onePass.get('--text')).toBe('text');
    expect(kinds('grades moodle').get('--rounding')).toBe('choices integer half one-decimal two-decimals');
  });

  it('grades moodle and grades canvas: the saved run, the grade file, --download and --grades-out complete files', () => {
    for (const path of ['grades moodle', 'grades canvas']) {
      const entry = table.find((e) => e.path === path)!;
      expect(entry.args, path).toEqual(['files', 'files']);
      for (const flag of ['--download', '--grades-out']) expect(kinds(path).get(flag), `${path} ${flag}`).toBe('files');
    }
    expect(kinds('grades canvas').get('--assignment')).toBe('text');
  });

  it('report and ingest: --out completes files', () => {
    for (const path of ['report', 'ingest questions', 'ingest rubrics']) expect(kinds(path).get('--out'), path).toBe('files');
  });
});
