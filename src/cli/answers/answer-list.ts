// The answers of a run as names and numbers: per answer file its path relative to its folder
// (or as given), its folder argument and its size; per answer its first file, how many files it
// has and where it was found. An Answer object (files, label, key name, student id) is built
// only when a run asks for it, so memory holds names, never 100,000 objects at once.
import { basename, join, normalize, sep } from 'node:path';
import { mimeFromName } from '../../api/mime.js';
import type { LocalFile } from '../../client/files.js';
import type { Action, Answer, AnswerSources, SkippedAnswer, SkippedFile } from './answers.js';
import { studentIdOf } from './student-id.js';

type Kind = 'file' | 'group' | 'pages';
const KINDS: Kind[] = ['file', 'group', 'pages'];

/** An unknown digest (no SHA-256 is 32 zero bytes in practice). */
const NO_DIGEST = Buffer.alloc(32);

const posix = (path: string) => path.split(sep).join('/');

export class AnswerList {
  /** Answer files added (including those of a student folder later skipped). */
  files = 0;
  /** Answers from folders and files (the text answers of stdin and --text are kept apart). */
  count = 0;
  directFiles = 0;
  textCount: number;
  rows = 0;
  readonly skipped: (SkippedAnswer & { position: number })[] = [];
  private readonly keyNames: string[] = [];
  private readonly fileRoot: number[] = [];
  private readonly fileSize: number[] = [];
  /** Each file's SHA-256 when the check read it whole (LocalFile.sha256), 32 bytes a file; unknown ones are zeros. */
  private digests = Buffer.alloc(0);
  /** Paths that are not their folder joined to their key name (files named directly, glob results). */
  private readonly otherPaths = new Map<number, string>();
  private readonly globRoots = new Set<number>();
  private readonly answerFile: number[] = [];
  private readonly answerLength: number[] = [];
  private readonly answerKind: number[] = [];
  private readonly answerPosition: number[] = [];
  private readonly answerRow: number[] = [];
  private readonly keyNameOverride = new Map<number, string>();
  /** Files of an answer that cannot be sent (--skip-unsupported), by answer: few, so kept as they are. */
  private readonly skippedFiles = new Map<number, SkippedFile[]>();
  private studentIdOverride?: string;
  /** Student folders refused as one answer (more than 10 files) under --skip-unsupported, for the entry table. */
  private readonly dropped: { first: number; length: number; row: SkippedAnswer }[] = [];

  constructor(
    private readonly roots: string[],
    private readonly textAnswers: Answer[],
    private readonly sources: AnswerSources,
  ) {
    this.textCount = textAnswers.length;
  }

  addFile(item: { path: string; keyName: string; root?: number; glob?: boolean }, size: number, sha256?: string): number {
    const file = this.files++;
    this.keyNames.push(item.keyName);
    this.fileRoot.push(item.root ?? -1);
    this.fileSize.push(size);
    if (sha256 !== undefined) this.keepDigest(file, sha256);
    if (item.root === undefined) this.directFiles += 1;
    if (item.glob && item.root !== undefined) this.globRoots.add(item.root);
    if (item.path !== this.joinedPath(file)) this.otherPaths.set(file, item.path);
    return file;
  }

  /** Starts an answer at this file; returns its number. */
  openAnswer(file: number, kind: Kind, position: number): number {
    this.answerFile.push(file);
    this.answerLength.push(1);
    this.answerKind.push(KINDS.indexOf(kind));
    this.answerPosition.push(position);
    if (kind === 'file' && mimeFromName(this.filePath(file)) === 'text/plain') this.textCount += 1;
    return this.count++;
  }

  /** The file just added belongs to the answer opened last (a page, or a file of the same student folder). */
  extendAnswer(): void {
    this.answerLength[this.count - 1] += 1;
  }

  fileCount(answer: number): number {
    return this.answerLength[answer];
  }

  labelOf(answer: number): string {
    return this.label(answer);
  }

  /** The answer opened last becomes a skipped row (a student folder with too many files); returns the row. */
  dropLastAnswerAsSkipped(reason: string): SkippedAnswer {
    const answer = this.count - 1;
    const first = this.answerFile[answer];
    const row = this.addSkipped(
      { label: this.label(answer), keyName: this.keyName(answer), studentId: this.studentIdFor(first), status: 'SKIPPED', reason },
      this.answerPosition[answer],
    );
    this.dropped.push({ first, length: this.answerLength[answer], row });
    this.answerFile.pop();
    this.answerLength.pop();
    this.answerKind.pop();
    this.answerPosition.pop();
    this.count -= 1;
    return row;
  }

  /** Adds a row not sent; returns it (numbered later, by numberRows). */
  addSkipped(row: Omit<SkippedAnswer, 'index'>, position: number): SkippedAnswer & { position: number } {
    const added = { ...row, index: -1, position };
    this.skipped.push(added);
    return added;
  }

  /** A file of this answer that cannot be sent: the answer is marked without it, and says so. */
  addSkippedFile(answer: number, file: SkippedFile): void {
    const files = this.skippedFiles.get(answer);
    if (files) files.push(file);
    else this.skippedFiles.set(answer, [file]);
  }

  setStudentId(studentId: string): void {
    this.studentIdOverride = studentId;
    if (this.count === 1) this.keyNameOverride.set(0, studentId);
    else if (this.textAnswers[0]) {
      this.textAnswers[0].studentId = studentId;
      this.textAnswers[0].keyName = studentId;
    }
  }

  /** Two answers with the same key name (two folders both holding a1.txt) are told apart by their paths. */
  qualifyCollidingKeyNames(): void {
    const counts = new Map<string, number>();
    const bump = (keyName: string) => counts.set(keyName, (counts.get(keyName) ?? 0) + 1);
    for (const answer of this.textAnswers) bump(answer.keyName);
    for (let answer = 0; answer < this.count; answer++) bump(this.keyName(answer));
    for (const row of this.skipped) bump(row.keyName);
    const collides = (keyName: string) => (counts.get(keyName) ?? 0) > 1;
    for (const answer of this.textAnswers) if (collides(answer.keyName)) answer.keyName = posix(normalize(answer.label));
    for (let answer = 0; answer < this.count; answer++) {
      if (collides(this.keyName(answer))) this.keyNameOverride.set(answer, posix(normalize(this.label(answer))));
    }
    for (const row of this.skipped) if (collides(row.keyName)) row.keyName = posix(normalize(row.label));
  }

  /** Rows in the order things were found: stdin and --text first, then answers and skipped files. */
  numberRows(): void {
    this.skipped.sort((a, b) => a.position - b.position);
    let row = this.textAnswers.length;
    let next = 0;
    for (let answer = 0; answer < this.count; answer++) {
      while (next < this.skipped.length && this.skipped[next].position < this.answerPosition[answer]) this.skipped[next++].index = row++;
      this.answerRow.push(row++);
    }
    while (next < this.skipped.length) this.skipped[next++].index = row++;
    this.rows = row;
  }

  studentIdCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    const count = (id: string | undefined) => {
      if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
    };
    for (const answer of this.textAnswers) count(answer.studentId);
    for (let answer = 0; answer < this.count; answer++) count(this.studentIdOverride ?? this.studentIdFor(this.answerFile[answer]));
    return counts;
  }

  *answers(): Generator<Answer> {
    yield* this.textAnswers;
    for (let answer = 0; answer < this.count; answer++) yield this.build(answer);
  }

  answerAt(row: number): Answer | undefined {
    if (row < this.textAnswers.length) return this.textAnswers[row];
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const at = this.answerRow[middle];
      if (at === row) return this.build(middle);
      if (at < row) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  filePath(file: number): string {
    return this.otherPaths.get(file) ?? this.joinedPath(file);
  }

  /** For the entry table: what became of one file. */
  entryOfFile(file: number): { action: Action; answer?: string; keyName?: string; studentId?: string; reason?: string } {
    const dropped = this.dropped.find((range) => file >= range.first && file < range.first + range.length);
    if (dropped) {
      const { row } = dropped;
      return { action: 'skip', answer: row.label, keyName: row.keyName, reason: 'too many files in one answer' };
    }
    let answer = this.count - 1;
    while (answer > 0 && this.answerFile[answer] > file) answer -= 1;
    return { action: 'send', ...this.describe(answer) };
  }

  /** For the entry table: how an answer is named in its row. */
  describe(answer: number): { answer: string; label: string; keyName: string; studentId?: string } {
    const built = this.build(answer);
    return { answer: built.label, label: built.label, keyName: built.keyName, studentId: built.studentId };
  }

  private build(answer: number): Answer {
    const first = this.answerFile[answer];
    const files: LocalFile[] = [];
    for (let file = first; file < first + this.answerLength[answer]; file++) {
      const path = this.filePath(file);
      const sha256 = this.digestOf(file);
      files.push({
        path,
        name: basename(path),
        type: mimeFromName(path) as string,
        size: this.fileSize[file],
        ...(sha256 ? { sha256 } : {}),
      });
    }
    const skippedFiles = this.skippedFiles.get(answer);
    // the first file's path, joined once: the label and the student id read it too (once an answer sent)
    const firstPath = files[0]?.path ?? this.filePath(first);
    return {
      index: this.answerRow[answer] ?? -1,
      label: this.label(answer, firstPath),
      keyName: this.keyName(answer),
      files,
      studentId: this.studentIdOverride ?? this.studentIdFor(first, firstPath),
      ...(skippedFiles ? { skippedFiles } : {}),
    };
  }

  private label(answer: number, firstPath?: string): string {
    const first = this.answerFile[answer];
    if (KINDS[this.answerKind[answer]] !== 'group') return firstPath ?? this.filePath(first);
    return `${join(this.roots[this.fileRoot[first]], this.groupOf(first) as string)}${sep}`;
  }

  private keyName(answer: number): string {
    const override = this.keyNameOverride.get(answer);
    if (override !== undefined) return override;
    const first = this.answerFile[answer];
    return KINDS[this.answerKind[answer]] === 'group' ? (this.groupOf(first) as string) : this.keyNames[first];
  }

  /** The first folder level under its folder argument, for a file in a subfolder. */
  private groupOf(file: number): string | undefined {
    const root = this.fileRoot[file];
    if (root < 0 || this.globRoots.has(root)) return undefined;
    const keyName = this.keyNames[file];
    const slash = keyName.indexOf('/');
    return slash < 0 ? undefined : keyName.slice(0, slash);
  }

  private studentIdFor(file: number, path = this.filePath(file)): string | undefined {
    return studentIdOf({ path, group: this.groupOf(file) }, this.sources);
  }

  /** The plan takes a short answer's identity from the check's read, not a second read (docs/benchmarks.md). */
  private keepDigest(file: number, sha256: string): void {
    if (this.digests.length < (file + 1) * 32) {
      const grown = Buffer.alloc(Math.max(1024, this.digests.length * 2, (file + 1) * 32));
      this.digests.copy(grown);
      this.digests = grown;
    }
    this.digests.write(sha256, file * 32, 32, 'hex');
  }

  private digestOf(file: number): string | undefined {
    const at = file * 32;
    if (this.digests.length < at + 32 || this.digests.compare(NO_DIGEST, 0, 32, at, at + 32) === 0) return undefined;
    return this.digests.toString('hex', at, at + 32);
  }

  private joinedPath(file: number): string {
    const root = this.fileRoot[file];
    return root >= 0 && !this.globRoots.has(root) ? join(this.roots[root], this.keyNames[file]) : this.keyNames[file];
  }
}
