import { readFileSync } from 'node:fs';

// Read at run time (works from src/ under vitest and from dist/ alike: both sit one level down).
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;
