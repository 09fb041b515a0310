// --import hook for the start-up benchmark: records every module a process loads (ESM through a
// resolve hook; CommonJS from require.cache at exit, and builtins as `require` asks for them)
// into the file named by BENCH_MODULES_FILE. Only used to list what `kct --help` loads; never
// while timing.
import { appendFileSync } from 'node:fs';
import Module, { createRequire, isBuiltin, register } from 'node:module';

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
  });
}
