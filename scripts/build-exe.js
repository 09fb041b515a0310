// npm run build:exe: kct as one executable file for Linux x64, for people without Node.js
// (Node's single executable applications). The built CLI (dist/) is bundled by esbuild into one
// CommonJS script, Node turns it into a blob (with V8's code cache), and postject injects the
// blob into a copy of a Node binary: KCT_SEA_NODE, else the Node running this script.
// Usage: node scripts/build-exe.js [--node <binary>] [--out <file>]
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { values } = parseArgs({ options: { node: { type: 'string' }, out: { type: 'string' } } });
const nodeBinary = resolve(values.node ?? process.env.KCT_SEA_NODE ?? process.execPath);
const output = resolve(values.out ?? join(root, 'dist', 'kct-linux-x64'));
const work = join(root, 'dist', 'exe');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// Modules that cannot live inside the executable: native addons (a .node file must be on disk)
// and the OCR engine (its worker and language data are files). Only the sandbox uses them; in
// the executable each is a module that throws KCT_NOT_IN_EXE when loaded (src/cli/executable.ts
// turns that into a clear message).
const NOT_EMBEDDED = ['better-sqlite3', '@napi-rs/canvas', 'tesseract.js', '@tesseract.js-data/eng'];

function fail(message) {
  process.stderr.write(`build-exe: ${message}\n`);
  process.exit(1);
}

if (process.platform !== 'linux' || process.arch !== 'x64') fail(`builds a Linux x64 executable; this is ${process.platform}-${process.arch}`);
try {
  statSync(join(root, 'dist', 'cli', 'main.js'));
} catch {
  fail('dist/ is not built: run `npm run build` first (npm run build:exe does)');
}
const nodeVersion = execFileSync(nodeBinary, ['--version'], { encoding: 'utf8' }).trim();
const [major, minor] = nodeVersion.slice(1).split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) fail(`${nodeBinary} is Node.js ${nodeVersion}; kct needs 20.19 or newer`);

/** esbuild plugin: what only works beside package.json and node_modules, made to work in one file. */
const selfContained = {
  name: 'kct-self-contained',
  setup(build) {
    const names = new RegExp(`^(${NOT_EMBEDDED.map((name) => name.replace(/[./]/g, '\\$&')).join('|')})(/.*)?$`);
    build.onResolve({ filter: names }, (args) => ({ path: args.path, namespace: 'not-embedded' }));
    build.onLoad({ filter: /.*/, namespace: 'not-embedded' }, (args) => ({
      contents: `throw Object.assign(new Error(${JSON.stringify(`${args.path} is not in the single-file executable`)}), { code: 'KCT_NOT_IN_EXE', module: ${JSON.stringify(args.path)} });`,
      loader: 'js',
    }));
    // version.js reads ../package.json at run time; the executable has none beside it
    build.onLoad({ filter: /[\\/]dist[\\/]version\.js$/ }, () => ({ contents: `export const VERSION = ${JSON.stringify(version)};`, loader: 'js' }));
    // undici.js loads undici's parts through createRequire(import.meta.url), which esbuild cannot
    // follow; with the plain `require` it bundles them
    build.onLoad({ filter: /[\\/]dist[\\/]client[\\/]undici\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const line = 'const require = createRequire(import.meta.url);';
      if (!source.includes(line)) fail(`${relative(root, args.path)} no longer has "${line}": update scripts/build-exe.js`);
      return { contents: source.replace(line, ''), loader: 'js' };
    });
  },
};

mkdirSync(work, { recursive: true });
const bundle = join(work, 'kct.cjs');
const { build } = await import('esbuild');
const result = await build({
  entryPoints: [join(root, 'scripts', 'exe', 'entry.js')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: `node${major}`,
  outfile: bundle,
  define: { KCT_VERSION: JSON.stringify(version) },
  plugins: [selfContained],
  legalComments: 'none',
  logLevel: 'error',
  metafile: true,
});
// ocr.js finds the OCR language data through import.meta.url: never reached in the executable
const warnings = result.warnings.filter((warning) => !warning.location?.file.includes('sandbox/extract/ocr'));
if (warnings.length > 0) fail(`esbuild warnings:\n${warnings.map((w) => `  ${w.location?.file}: ${w.text}`).join('\n')}`);

// The blob is made by the Node binary it goes into: its format and code cache are that version's.
const blob = join(work, 'kct.blob');
const seaConfig = join(work, 'sea-config.json');
writeFileSync(seaConfig, JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }));
try {
  execFileSync(nodeBinary, ['--experimental-sea-config', seaConfig], { stdio: 'pipe' });
} catch (error) {
  fail(`${nodeBinary} could not make the blob: ${error.stderr || error.message}`);
}

const partial = `${output}.partial`;
copyFileSync(nodeBinary, partial);
chmodSync(partial, 0o755);
const { inject } = require('postject');
// postject's ELF library warns about Node's unnamed note sections: harmless, and not worth showing
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => (/^warning: Can't find string offset/.test(String(chunk)) ? true : write(chunk, ...rest));
try {
  await inject(partial, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2' });
} finally {
  process.stderr.write = write;
}
renameSync(partial, output);
rmSync(blob);

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
process.stderr.write(`build-exe: ${output.startsWith(root) ? relative(root, output) : output} (${mb(statSync(output).size)}; Node.js ${nodeVersion} from ${nodeBinary}; script ${mb(statSync(bundle).size)})\n`);
