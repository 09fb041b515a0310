// Keeps API keys out of everything kct prints: debug traces, errors, status lines.

/** Anything shaped like a key: kct_ followed by key characters (a typo'd or truncated key is still a secret). */
const KEY_PATTERN = /kct_[A-Za-z0-9_-]+/g;

/** Whether a URL path holds something shaped like a key: a key pasted where an id goes would reach the server's access logs. */
export function keyInPath(path: string): boolean {
  return new RegExp(`/${KEY_PATTERN.source}`).test(path);
}

/** The keys a text holds (each a secret): what was pasted where a key alone belongs. */
export function keysIn(text: string): string[] {
  return text.match(KEY_PATTERN) ?? [];
}

/** A masked form safe to show: the prefix and the last four characters. */
export function maskKey(key: string): string {
  if (key.length <= 12) return `${key.slice(0, 4)}****`;
  return `${key.slice(0, 4)}****${key.slice(-4)}`;
}

/** The part of a key after a prefix ("kct_", "kct_sbx_") that is still a secret on its own: a server may echo that part alone. */
const SECRET_PART_LENGTH = 12;

/** Removes the given secrets (and, of each, what follows a prefix: "SECRET…" of "kct_SECRET…"), and anything shaped like a kct key, from a string. */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  return redactSecrets(text, secrets).replace(KEY_PATTERN, '[redacted]');
}

/**
 * Removes the given secrets (and what follows each one's prefix) and nothing else: a response body
 * is kept as it is but for the caller's own key echoed back (a new key `kct keys create` made is data).
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    out = out.split(secret).join('[redacted]');
    for (let at = secret.indexOf('_'); at >= 0; at = secret.indexOf('_', at + 1)) {
      const part = secret.slice(at + 1);
      if (part.length >= SECRET_PART_LENGTH) out = out.split(part).join('[redacted]');
    }
  }
  return out;
}

/** A parsed body (JSON values, or text) with every string redacted: what an error keeps of the server's answer. */
export function redactValue(value: unknown, secrets: readonly (string | undefined)[] = []): unknown {
  if (typeof value === 'string') return redact(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [redact(name, secrets), redactValue(item, secrets)]));
  return value;
}

/** JSON fields that hold a secret other than an API key: a sign-in's password, a session token. */
const SECRET_FIELDS = /"(password|session_token)"(\s*:\s*)"(?:[^"\\]|\\.)*"/g;

/** A JSON text (a traced body) with the values of secret fields replaced. */
export function redactFields(text: string): string {
  return text.replace(SECRET_FIELDS, '"$1"$2"[redacted]"');
}

const SENSITIVE_HEADERS = new Set(['x-api-key', 'x-token-key', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

export function redactHeaders(headers: Record<string, unknown>, secrets: readonly (string | undefined)[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    out[name] = SENSITIVE_HEADERS.has(name.toLowerCase()) ? '[redacted]' : redact(text, secrets);
  }
  return out;
}
