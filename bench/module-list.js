// --import hook for the start-up benchmark: records every module a process loads (ESM through a
// resolve hook; CommonJS from require.cache at exit, and builtins as `require` asks for them)
// into the file named by BENCH_MODULES_FILE. A chunk of kct's bundle (dist/bundle/, see
// scripts/build-bundle.js) is listed, then each module it holds, as `bundled <path>`. Only used to
// list what a command loads; never while timing.
import { appendFileSync, readFileSync } from 'node:fs';
import Module, { createRequire, isBuiltin, register } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = process.env.BENCH_MODULES_FILE;
if (out) {
  register('./module-list-hooks.js', import.meta.url, { data: { out } });
  const builtins = new Set();
  const require = Module.prototype.require;
  Module.prototype.require = function recordBuiltin(id) {
    if (isBuiltin(id)) builtins.add(id.startsWith('node:') ? id : `node:${id}`);
    return require.call(this, id);
  };
  process.on('exit', () => {
    const cjs = [...Object.keys(createRequire(import.meta.url).cache), ...builtins].map((path) => `cjs ${path}`);
    if (cjs.length > 0) appendFileSync(out, `${cjs.join('\n')}\n`);
    const bundled = bundledModules(readFileSync(out, 'utf8'));
    if (bundled.length > 0) appendFileSync(out, `${bundled.map((path) => `bundled ${path}`).join('\n')}\n`);
  });
}

/** The modules held by the bundle's chunks on the list (dist/bundle/modules.json maps each chunk to them). */
function bundledModules(list) {
  const bundled = new Set();
  const maps = new Map();
  for (const [, url] of list.matchAll(/^esm (file:\S+\/dist\/bundle\/\S+\.js)$/gm)) {
    const chunk = fileURLToPath(url);
    const dir = dirname(chunk);
    const root = join(dir, '..', '..');
    if (!maps.has(dir)) maps.set(dir, JSON.parse(readFileSync(join(dir, 'modules.json'), 'utf8')));
    for (const input of maps.get(dir)[chunk.slice(dir.length + 1)] ?? []) bundled.add(join(root, input));
  }
  return [...bundled];
}
