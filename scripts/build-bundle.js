// npm run build (after tsc): the CLI as ES module chunks in dist/bundle/, which bin/kct.js runs, so
// Node reads a few dozen files, not about 400 modules (docs/benchmarks.md, "Start-up and the bundle,
// 2026-11-29"). Each command stays a chunk of its own, loaded when it runs; the library and
// kct-sandbox are not bundled. modules.json maps each chunk to its modules (bench/module-list.js).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'bundle');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** version.js reads ../package.json beside itself; from dist/bundle/ that file is not there. */
const inlineVersion = {
  name: 'kct-inline-version',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]dist[\\/]version\.js$/ }, () => ({
      contents: `export const VERSION = ${JSON.stringify(version)};`,
      loader: 'js',
    }));
  },
};

rmSync(out, { recursive: true, force: true });
const result = await build({
  entryPoints: [join(root, 'dist', 'cli', 'main.js')],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: out,
  chunkNames: '[name]-[hash]',
  // the sandbox is a package of its own, loaded only by `kct sandbox` (src/cli/core/context.ts)
  external: ['kct-sandbox'],
  // CommonJS dependencies (undici, commander) call require(); an ES module has none of its own
  banner: { js: "import { createRequire as __kctRequire } from 'node:module'; const require = __kctRequire(import.meta.url);" },
  plugins: [inlineVersion],
  metafile: true,
  legalComments: 'none',
  // without comments the chunks are ASCII (esbuild escapes the rest): V8 then holds each chunk's
  // source one byte a character, not two; names stay, for readable stack traces
  minifyWhitespace: true,
  logLevel: 'error',
});
if (result.warnings.length > 0) {
  process.stderr.write(`build-bundle: esbuild warnings:\n${result.warnings.map((w) => `  ${w.location?.file}: ${w.text}`).join('\n')}\n`);
  process.exit(1);
}
const modules = {};
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  modules[relative(out, join(root, file))] = Object.keys(output.inputs).map((input) => relative(root, join(root, input)));
}
writeFileSync(join(out, 'modules.json'), `${JSON.stringify(modules)}\n`);
