/**
 * A field's place in a document, as a person reads it: `questions[2].rubrics[0].score`. The
 * sandbox's 400 details and the preview files' problems name fields with it, so the two agree.
 */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}
