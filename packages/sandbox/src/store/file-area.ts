// Where uploaded files live under the data dir, and keeping that tree consistent with the
// database after a crash.
import { mkdirSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Store } from './store.js';

export class FileArea {
  readonly incoming: string;
  readonly tasks: string;
  readonly uploads: string;

  constructor(readonly dataDir: string) {
    this.incoming = join(dataDir, 'files', 'incoming');
    this.tasks = join(dataDir, 'files', 'tasks');
    this.uploads = join(dataDir, 'files', 'uploads');
    for (const dir of [this.incoming, this.tasks, this.uploads]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  taskDir(taskId: string): string {
    return join(this.tasks, taskId);
  }

  /** Moves a request's received files to the task's own directory (one rename: atomic). */
  async adopt(receivedDir: string, taskId: string): Promise<string> {
    const target = this.taskDir(taskId);
    await rename(receivedDir, target);
    return target;
  }

  /** Moves a received upload under its public token (one rename). */
  async adoptUpload(receivedDir: string, token: string): Promise<string> {
    const target = join(this.uploads, token);
    await rename(receivedDir, target);
    return target;
  }

  relative(path: string): string {
    return relative(this.dataDir, path);
  }

  absolute(relativePath: string): string {
    return join(this.dataDir, relativePath);
  }

  async remove(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true });
  }

  /**
   * At start-up: half-received uploads, and task directories whose task row was never committed
   * (the process died between moving the files and the commit), are deleted.
   */
  async sweep(store: Store): Promise<void> {
    await rm(this.incoming, { recursive: true, force: true });
    mkdirSync(this.incoming, { recursive: true, mode: 0o700 });
    for (const name of await readdir(this.tasks)) {
      if (!store.taskExists(name)) await rm(join(this.tasks, name), { recursive: true, force: true });
    }
    for (const name of await readdir(this.uploads)) {
      if (!store.upload(name)) await rm(join(this.uploads, name), { recursive: true, force: true });
    }
  }
}
