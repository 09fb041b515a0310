// Fields the spec gives a default (4.8: `style` defaults to `Bullet`). A request that says the
// default and one that leaves it out ask for the same marking: one answer, one key, one body, so
// `--style Bullet` never charges again what a run without it marked.

const DEFAULTS: Readonly<Record<string, unknown>> = { style: 'Bullet' };

/** Whether a field holds the value the service takes when it is left out. */
export function isSpecDefault(name: string, value: unknown): boolean {
  return Object.hasOwn(DEFAULTS, name) && DEFAULTS[name] === value;
}

/** The fields without those that only say a default: what is keyed and sent. */
export function withoutDefaults<T extends object>(fields: T): T {
  if (!Object.entries(fields).some(([name, value]) => isSpecDefault(name, value))) return fields;
  return Object.fromEntries(Object.entries(fields).filter(([name, value]) => !isSpecDefault(name, value))) as T;
}
