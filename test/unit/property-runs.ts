// How many cases a property test tries: a small default so `npm test` stays quick, or
// KCT_PROPERTY_RUNS (docs/testing.md) for a long search, e.g. KCT_PROPERTY_RUNS=2000 npm test.
export function propertyRuns(normal: number): number {
  const asked = Number(process.env.KCT_PROPERTY_RUNS);
  return Number.isInteger(asked) && asked > 0 ? asked : normal;
}
