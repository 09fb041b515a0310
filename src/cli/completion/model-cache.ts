// Model ids for shell completion, cached briefly so that pressing Tab does not ask the API each
// time: $XDG_CACHE_HOME/kct/ (default ~/.cache/kct/), one file per base URL and key (named by a
// hash, never the key), mode 0600, fresh for 60 seconds.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { sha256 } from '../../client/identity.js';

const MODEL_CACHE_TTL_MS = 60_000;

export interface CachedModel {
  id: string;
  name: string;
  status: string;
}

function cacheFolder(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'kct');
}

export function modelCacheFile(env: NodeJS.ProcessEnv, baseUrl: string, apiKey: string): string {
  const digest = sha256(`${baseUrl}\0${apiKey}`).slice(0, 16);
  return join(cacheFolder(env), `completion-models-${digest}.json`);
}

/** The cached models while they are fresh; undefined when missing, stale or unreadable. */
export function readModelCache(file: string, now = Date.now()): CachedModel[] | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { fetched_at?: unknown; models?: unknown };
    if (typeof data.fetched_at !== 'number' || !Array.isArray(data.models)) return undefined;
    if (now - data.fetched_at >= MODEL_CACHE_TTL_MS || data.fetched_at > now) return undefined;
    return data.models as CachedModel[];
  } catch {
    return undefined;
  }
}

export function writeModelCache(file: string, models: CachedModel[], now = Date.now()): void {
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ fetched_at: now, models }), { mode: 0o600 });
  renameSync(temporary, file);
}
