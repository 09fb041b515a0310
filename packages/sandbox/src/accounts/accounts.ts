// Signing in to the sandbox's product (spec 5.4: keys are managed "after a user signs in";
// docs/sandbox.md, "Key routes"). Every account has a password the sandbox makes and prints at
// each start: the database holds its sha256 (128 random bits, as for keys), passwords.json
// (0600) the clear copies. A sign-in opens a session, kept in memory by the hash of its token.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashSecret, keepSecrets } from '../store/secrets-file.js';
import type { Store } from '../store/store.js';

export const PASSWORDS_FILE = 'passwords.json';
const SESSION_PREFIX = 'sess_sbx_';
/** A session ends an hour after sign-in (or at sign-out, or when the sandbox stops). */
const SESSION_TTL_MS = 60 * 60 * 1000;
const MAX_SESSIONS = 1000;

export interface Account {
  id: number;
  name: string;
}

function newPassword(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The password of every account, issued on first start (or for a data dir made before accounts
 * had one), then read from passwords.json and checked against its hash. One lost from the file is
 * issued anew (the old one stops working) and `log` says so.
 */
export function accountPasswords(store: Store, dataDir: string, log?: (line: string) => void): Record<string, string> {
  const rows = store.prepared('SELECT name, password_hash FROM users ORDER BY id').all() as {
    name: string;
    password_hash: string | null;
  }[];
  const hashes = new Map(rows.map((r) => [r.name, r.password_hash]));
  const { secrets, reissued } = keepSecrets(
    dataDir,
    PASSWORDS_FILE,
    rows.map((r) => r.name),
    (name) => hashes.get(name) ?? null,
    (name) => {
      const password = newPassword();
      store.prepared('UPDATE users SET password_hash = ? WHERE name = ?').run(hashSecret(password), name);
      return password;
    },
  );
  if (reissued.length > 0)
    log?.(
      `${PASSWORDS_FILE} did not hold the passwords of ${reissued.join(', ')}: new passwords were issued (the old ones no longer work).`,
    );
  return secrets;
}

/** The hash compared when the account does not exist, so an unknown name takes as long as a wrong password. */
const NO_ACCOUNT_HASH = hashSecret('no such account');

/** The account these credentials sign in to, or undefined (never saying which of the two was wrong). */
export function checkPassword(store: Store, account: string, password: string): Account | undefined {
  const row = store.prepared('SELECT id, name, password_hash FROM users WHERE name = ?').get(account) as
    | { id: number; name: string; password_hash: string | null }
    | undefined;
  const expected = Buffer.from(row?.password_hash ?? NO_ACCOUNT_HASH, 'hex');
  const matches = timingSafeEqual(Buffer.from(hashSecret(password), 'hex'), expected);
  return matches && row?.password_hash ? { id: row.id, name: row.name } : undefined;
}

/** Open sessions by the hash of their token (the token itself is not kept), oldest first. */
export class Sessions {
  private readonly byHash = new Map<string, { account: Account; expiresAt: number }>();

  constructor(
    private readonly ttlMs = SESSION_TTL_MS,
    private readonly maxSessions = MAX_SESSIONS,
  ) {}

  open(account: Account): { token: string; expiresAt: number } {
    const now = Date.now();
    // Bounded: the oldest session gives way (a sign-in storm cannot grow memory).
    for (const [hash, session] of this.byHash) {
      if (session.expiresAt > now && this.byHash.size < this.maxSessions) break;
      this.byHash.delete(hash);
    }
    const token = `${SESSION_PREFIX}${randomBytes(16).toString('hex')}`;
    const expiresAt = now + this.ttlMs;
    this.byHash.set(hashSecret(token), { account, expiresAt });
    return { token, expiresAt };
  }

  find(token: string): Account | undefined {
    const hash = hashSecret(token);
    const session = this.byHash.get(hash);
    if (session === undefined) return undefined;
    if (session.expiresAt <= Date.now()) {
      this.byHash.delete(hash);
      return undefined;
    }
    return session.account;
  }

  close(token: string): boolean {
    return this.byHash.delete(hashSecret(token));
  }
}
