// Run by the Node binary that goes into the executable (scripts/build-exe.js): compiles a bundle
// as scripts/exe/main.cjs does (V8's default flags, as at run time), and writes V8's code cache for it.
// Usage: <node> code-cache.cjs <bundle.cjs> <name> <out.cache>
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const vm = require('node:vm');

const [bundle, name, output] = process.argv.slice(2);
const source = readFileSync(bundle, 'utf8');
const filename = `kct-${name}.cjs`;
const data = new vm.Script(source, { filename }).createCachedData();
if (new vm.Script(source, { filename, cachedData: data }).cachedDataRejected) {
  process.stderr.write('code-cache: V8 rejected the code cache it just made\n');
  process.exit(1);
}
writeFileSync(output, data);
