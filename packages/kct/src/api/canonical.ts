/**
 * JSON with object keys sorted at every depth and undefined members dropped, so equal values
 * give equal text. Idempotency keys (client) and request fingerprints (sandbox) hash it.
 *
 * It runs once per submission, so it builds the text in one string instead of arrays of entries:
 * keys in UTF-16 code unit order (what `a < b` compares), sorted in place by insertion, since
 * an object here has a handful of keys and Array.prototype.sort with a comparator allocates a
 * work area on every call.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let text = '[';
    // a hole of a sparse array is nothing between its commas, as Array.prototype.join writes it
    for (let at = 0; at < value.length; at++) text += `${at === 0 ? '' : ','}${at in value ? canonicalJson(value[at]) : ''}`;
    return `${text}]`;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    for (let at = 1; at < keys.length; at++) {
      const key = keys[at];
      let to = at;
      for (; to > 0 && keys[to - 1] > key; to--) keys[to] = keys[to - 1];
      keys[to] = key;
    }
    let text = '{';
    let first = true;
    for (const key of keys) {
      const member = record[key];
      if (member === undefined) continue;
      text += `${first ? '' : ','}${JSON.stringify(key)}:${canonicalJson(member)}`;
      first = false;
    }
    return `${text}}`;
  }
  return JSON.stringify(value ?? null);
}
