// npm pack of packages/kct: the package's README is the repository's README.md (run by prepack).
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
copyFileSync(join(root, 'README.md'), join(root, 'packages', 'kct', 'README.md'));
