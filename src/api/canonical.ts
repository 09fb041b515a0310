/**
 * JSON with object keys sorted at every depth and undefined members dropped, so equal values
 * give equal text. Idempotency keys (client) and request fingerprints (sandbox) hash it, once an
 * answer: it is built in one string, with no array of entries to sort and join.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += i === 0 ? canonicalJson(value[i]) : `,${canonicalJson(value[i])}`;
    return `${text}]`;
  }
  if (value !== null && typeof value === 'object') {
    const keys = sortedKeys(value);
    let text = '{';
    for (const key of keys) {
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined) continue;
      text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(member)}`;
    }
    return `${text}}`;
  }
  return JSON.stringify(value ?? null);
}

/** How many keys are sorted in place: V8's sort takes a work area each call, and most objects hashed have a few keys. */
const IN_PLACE = 16;

/** The object's keys in UTF-16 code unit order (as `<` and the default sort compare). */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  if (keys.length > IN_PLACE) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    let j = i - 1;
    for (; j >= 0 && keys[j] > key; j--) keys[j + 1] = keys[j];
    keys[j + 1] = key;
  }
  return keys;
}
