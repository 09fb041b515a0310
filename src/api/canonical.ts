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
    // the default sort orders by UTF-16 code units, as `<` does
    const keys = Object.keys(value).sort();
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
