// Secrets the sandbox must print at every start but keeps only as hashes in the database (the
// seeded keys, the accounts' passwords): their clear copies live in a 0600 JSON file beside it
// (keys.json, passwords.json), each checked against its hash at start (docs/sandbox.md, "Keys").
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** sha256 of a random secret: 128 random bits make a salt or a slow hash pointless. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function readSecretsFile(dataDir: string, file: string): Record<string, string> {
  const path = join(dataDir, file);
  if (!existsSync(path)) return {};
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

/** Created 0600 (never chmod-ed after), replaced in one rename. */
export function writeSecretsFile(dataDir: string, file: string, secrets: Record<string, string>): void {
  const path = join(dataDir, file);
  const temporary = `${path}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(secrets, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

export interface KeptSecrets {
  secrets: Record<string, string>;
  /** Names whose secret was lost from the file (or no longer matched) and was issued anew. */
  reissued: string[];
}

/**
 * The secret of each name from `file`, checked against the hash the database holds. One that is
 * missing, or no longer matches, cannot be recovered from its hash: `issue` makes a new one (and
 * stores its hash), and the file is written again. A name with no hash yet (`null`) is issued
 * for the first time, which is not a loss.
 */
export function keepSecrets(
  dataDir: string,
  file: string,
  names: readonly string[],
  hashOf: (name: string) => string | null,
  issue: (name: string) => string,
): KeptSecrets {
  const known = readSecretsFile(dataDir, file);
  const secrets: Record<string, string> = {};
  const reissued: string[] = [];
  let changed = Object.keys(known).length !== names.length;
  for (const name of names) {
    const hash = hashOf(name);
    const secret = known[name];
    if (hash !== null && secret !== undefined && hashSecret(secret) === hash) {
      secrets[name] = secret;
      continue;
    }
    secrets[name] = issue(name);
    changed = true;
    if (hash !== null) reissued.push(name);
  }
  if (changed) writeSecretsFile(dataDir, file, secrets);
  return { secrets, reissued };
}
