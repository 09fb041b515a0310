// How property tests are run: a small default number of cases so `npm test` stays quick, or
// KCT_PROPERTY_RUNS for a long search, and KCT_PROPERTY_SEED to search elsewhere or replay a
// failure's seed (docs/testing.md), e.g. KCT_PROPERTY_RUNS=2000 KCT_PROPERTY_SEED=7 npm test.
export function propertyRuns(normal: number): number {
  const asked = Number(process.env.KCT_PROPERTY_RUNS);
  return Number.isInteger(asked) && asked > 0 ? asked : normal;
}

export function propertySeed(normal: number): number {
  const asked = Number(process.env.KCT_PROPERTY_SEED);
  return Number.isInteger(asked) ? asked : normal;
}
