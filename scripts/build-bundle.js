// npm run build (after tsc): the CLI as ES module chunks in dist/bundle/, which bin/kct.js runs, so
// Node reads a few dozen files, not about 400 modules (docs/benchmarks.md, "Start-up and the bundle,
// 2026-11-29"). Each command stays a chunk of its own, loaded when it runs; the library and
// kct-sandbox are not bundled. modules.json maps each chunk to its modules (bench/module-list.js).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  write: false,
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
const files = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
files.set(join(out, 'modules.json'), Buffer.from(`${JSON.stringify(modules)}\n`));

// A kct may be running from dist/bundle while it is built again (the tests build while others run):
// a file whose bytes are the same is left alone, a changed one is replaced whole (written beside,
// then renamed), and only then are the chunks of an older build removed.
mkdirSync(out, { recursive: true });
for (const [path, contents] of files) {
  let same = false;
  try {
    same = readFileSync(path).equals(contents);
  } catch {
    same = false;
  }
  if (same) continue;
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, contents);
  renameSync(partial, path);
}
for (const name of readdirSync(out))
  if (!files.has(join(out, name)) && !name.endsWith('.partial')) rmSync(join(out, name), { force: true });
