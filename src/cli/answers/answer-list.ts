// The answers of a run as names and numbers: per answer file its path relative to its folder
// (or as given), its folder argument and its size; per answer its first file, how many files it
// has and where it was found. An Answer object (files, label, identity, student id) is built
// only when a run asks for it, so memory holds names, never 100,000 objects at once.
import { basename, join, normalize, sep } from 'node:path';
import { mimeFromName } from '../../api/mime.js';
import type { LocalFile } from '../../client/files.js';
import type { Action, Answer, AnswerSources, SkippedAnswer } from './answers.js';
import { studentIdOf } from './student-id.js';

type Kind = 'file' | 'group' | 'pages';
const KINDS: Kind[] = ['file', 'group', 'pages'];

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
  private readonly identities: string[] = [];
  private readonly fileRoot: number[] = [];
  private readonly fileSize: number[] = [];
  /** Paths that are not their folder joined to their identity (files named directly, glob results). */
  private readonly otherPaths = new Map<number, string>();
  private readonly globRoots = new Set<number>();
  private readonly answerFile: number[] = [];
  private readonly answerLength: number[] = [];
  private readonly answerKind: number[] = [];
  private readonly answerPosition: number[] = [];
  private readonly answerRow: number[] = [];
  private readonly identityOverride = new Map<number, string>();
  private studentIdOverride?: string;
  /** Student folders refused as one answer (more than 10 files) under --skip-unsupported, for the entry table. */
  private readonly dropped: { first: number; length: number; skipped: number }[] = [];

  constructor(
    private readonly roots: string[],
    private readonly textAnswers: Answer[],
    private readonly sources: AnswerSources,
  ) {
    this.textCount = textAnswers.length;
  }

  addFile(item: { path: string; identity: string; root?: number; glob?: boolean }, size: number): number {
    const file = this.files++;
    this.identities.push(item.identity);
    this.fileRoot.push(item.root ?? -1);
    this.fileSize.push(size);
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

  /** The answer opened last becomes a skipped row (a student folder with too many files). */
  dropLastAnswerAsSkipped(reason: string): void {
    const answer = this.count - 1;
    const first = this.answerFile[answer];
    this.skipped.push({
      index: -1,
      label: this.label(answer),
      identity: this.identity(answer),
      studentId: this.studentIdFor(first),
      status: 'SKIPPED',
      reason,
      position: this.answerPosition[answer],
    });
    this.dropped.push({ first, length: this.answerLength[answer], skipped: this.skipped.length - 1 });
    this.answerFile.pop();
    this.answerLength.pop();
    this.answerKind.pop();
    this.answerPosition.pop();
    this.count -= 1;
  }

  addSkipped(row: Omit<SkippedAnswer, 'index'>, position: number): void {
    this.skipped.push({ ...row, index: -1, position });
  }

  setStudentId(studentId: string): void {
    this.studentIdOverride = studentId;
    if (this.count === 1) this.identityOverride.set(0, studentId);
    else if (this.textAnswers[0]) {
      this.textAnswers[0].studentId = studentId;
      this.textAnswers[0].identity = studentId;
    }
  }

  /** Two answers with the same identity (two folders both holding a1.txt) are told apart by their paths. */
  qualifyCollidingIdentities(): void {
    const counts = new Map<string, number>();
    const bump = (identity: string) => counts.set(identity, (counts.get(identity) ?? 0) + 1);
    for (const answer of this.textAnswers) bump(answer.identity);
    for (let answer = 0; answer < this.count; answer++) bump(this.identity(answer));
    for (const row of this.skipped) bump(row.identity);
    const collides = (identity: string) => (counts.get(identity) ?? 0) > 1;
    for (const answer of this.textAnswers) if (collides(answer.identity)) answer.identity = posix(normalize(answer.label));
    for (let answer = 0; answer < this.count; answer++) {
      if (collides(this.identity(answer))) this.identityOverride.set(answer, posix(normalize(this.label(answer))));
    }
    for (const row of this.skipped) if (collides(row.identity)) row.identity = posix(normalize(row.label));
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
  entryOfFile(file: number): { action: Action; answer?: string; identity?: string; studentId?: string; reason?: string } {
    const dropped = this.dropped.find((range) => file >= range.first && file < range.first + range.length);
    if (dropped) {
      const row = this.skipped.find((_, index) => index === dropped.skipped) ?? this.skipped[dropped.skipped];
      return { action: 'skip', answer: row.label, identity: row.identity, reason: 'too many files in one answer' };
    }
    let answer = this.count - 1;
    while (answer > 0 && this.answerFile[answer] > file) answer -= 1;
    const built = this.build(answer);
    return { action: 'send', answer: built.label, identity: built.identity, studentId: built.studentId };
  }

  skippedOfPath(path: string): SkippedAnswer | undefined {
    return this.skipped.find((row) => row.label === path);
  }

  private build(answer: number): Answer {
    const first = this.answerFile[answer];
    const files: LocalFile[] = [];
    for (let file = first; file < first + this.answerLength[answer]; file++) {
      const path = this.filePath(file);
      files.push({ path, name: basename(path), type: mimeFromName(path) as string, size: this.fileSize[file] });
    }
    return {
      index: this.answerRow[answer] ?? -1,
      label: this.label(answer),
      identity: this.identity(answer),
      files,
      studentId: this.studentIdOverride ?? this.studentIdFor(first),
    };
  }

  private label(answer: number): string {
    const first = this.answerFile[answer];
    if (KINDS[this.answerKind[answer]] !== 'group') return this.filePath(first);
    return `${join(this.roots[this.fileRoot[first]], this.groupOf(first) as string)}${sep}`;
  }

  private identity(answer: number): string {
    const override = this.identityOverride.get(answer);
    if (override !== undefined) return override;
    const first = this.answerFile[answer];
    return KINDS[this.answerKind[answer]] === 'group' ? (this.groupOf(first) as string) : this.identities[first];
  }

  /** The first folder level under its folder argument, for a file in a subfolder. */
  private groupOf(file: number): string | undefined {
    const root = this.fileRoot[file];
    if (root < 0 || this.globRoots.has(root)) return undefined;
    const identity = this.identities[file];
    const slash = identity.indexOf('/');
    return slash < 0 ? undefined : identity.slice(0, slash);
  }

  private studentIdFor(file: number): string | undefined {
    return studentIdOf({ path: this.filePath(file), group: this.groupOf(file) }, this.sources);
  }

  private joinedPath(file: number): string {
    const root = this.fileRoot[file];
    return root >= 0 && !this.globRoots.has(root) ? join(this.roots[root], this.identities[file]) : this.identities[file];
  }
}
