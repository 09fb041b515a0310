// Writes docs/openapi.json from the zod contract (src/api/openapi.ts, built into dist/).
// Run `npm run openapi` after changing src/api; test/integration/openapi.test.ts fails until you do.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { openApiDocument } = await import(join(root, 'dist', 'api', 'openapi.js'));
const { VERSION } = await import(join(root, 'dist', 'version.js'));
writeFileSync(join(root, 'docs', 'openapi.json'), `${JSON.stringify(openApiDocument({ version: VERSION }), null, 2)}\n`);
