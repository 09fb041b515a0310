// The zod builders kct calls, by name. Code reads them as `z.` through this module's namespace, not
// zod's own `z`: a namespace shared across the bundle's chunks is kept whole, and zod's holds its
// 64 locales (its chunk was 604 KB with them, 149 KB without). See docs/benchmarks.md.

export type { infer, output, ZodError, ZodObject, ZodType } from 'zod';
export {
  array,
  boolean,
  enum,
  iso,
  literal,
  looseObject,
  number,
  object,
  registry,
  strictObject,
  string,
  toJSONSchema,
  union,
  unknown,
  url,
} from 'zod';
