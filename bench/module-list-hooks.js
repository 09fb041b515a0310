// Module hooks (run on the loader thread): one line per resolved module URL.
import { appendFileSync } from 'node:fs';

let out;

export function initialize(data) {
  out = data.out;
}

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(out, `esm ${result.url}\n`);
  return result;
}
