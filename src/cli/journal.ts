// The --resume journal: one JSON line per event (submitted, final) per answer, appended as the
// run goes, so a crash or Ctrl-C loses nothing. A later run reads the last line of each answer.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { UsageError } from '../api/errors.js';
import { isFinalStatus } from '../api/status.js';

export interface JournalEntry {
  answer: string;
  /** The idempotency key: it changes exactly when what is sent changes. */
  key: string;
  task_id: string;
  status: string;
  at: string;
}

export type ResumePlan =
  | { kind: 'submit'; changed: boolean }
  | { kind: 'attach'; taskId: string }
  | { kind: 'done'; taskId: string; status: string };

export class Journal {
  private readonly last = new Map<string, JournalEntry>();

  constructor(readonly path: string) {
    if (!existsSync(path)) {
      // find out now, before any task exists, that the journal cannot be written
      try {
        appendFileSync(path, '', { mode: 0o600 });
      } catch (error) {
        throw new UsageError(`cannot write the journal ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { suggestion: 'Choose a --resume path in a folder you can write to.' });
      }
      return;
    }
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(code === 'EISDIR' ? `the journal ${path} is a folder` : `cannot read the journal ${path} (${code ?? String(error)})`, {
        suggestion: 'Give --resume a file path, e.g. --resume marks.journal (it is created if missing).',
      });
    }
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      let entry: JournalEntry;
      try {
        entry = JSON.parse(line) as JournalEntry;
      } catch {
        // A torn last line from a killed run is expected; anything else is a damaged file.
        if (index >= lines.length - 2) return;
        throw new UsageError(`the journal ${path} is damaged at line ${index + 1}`, { suggestion: 'Move it away to start afresh (tasks already created are still found through their idempotency keys).' });
      }
      if (entry.answer && entry.key && entry.task_id) this.last.set(entry.answer, entry);
    });
  }

  plan(answer: string, key: string): ResumePlan {
    const entry = this.last.get(answer);
    if (!entry) return { kind: 'submit', changed: false };
    if (entry.key !== key) return { kind: 'submit', changed: true };
    if (isFinalStatus(entry.status)) return { kind: 'done', taskId: entry.task_id, status: entry.status };
    return { kind: 'attach', taskId: entry.task_id };
  }

  record(answer: string, key: string, taskId: string, status: string): void {
    const entry: JournalEntry = { answer, key, task_id: taskId, status, at: new Date().toISOString() };
    this.last.set(answer, entry);
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }
}
