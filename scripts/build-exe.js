// npm run build:exe: kct as one executable file for Linux x64, for people without Node.js
// (Node's single executable applications). esbuild bundles the built CLI (dist/) and, apart,
// the sandbox and the sandbox's worker thread (its loop and every job module) into CommonJS;
// Node packs a small first script (scripts/exe/main.cjs) with the three bundles, their V8 code
// caches and the version as assets into a blob; postject injects the blob into a copy of a Node
// binary: --node, else KCT_SEA_NODE, else the Node running this.
// Usage: node scripts/build-exe.js [--node <binary>] [--out <file>]   (after npm run build)
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const here = join(root, 'scripts', 'exe');
const require = createRequire(import.meta.url);
const { values } = parseArgs({ options: { node: { type: 'string' }, out: { type: 'string' } } });
const nodeBinary = resolve(values.node ?? process.env.KCT_SEA_NODE ?? process.execPath);
const output = resolve(values.out ?? join(root, 'dist', 'kct-linux-x64'));
const work = join(root, 'dist', 'exe');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// Modules that cannot live inside the executable: native addons (a .node file must be on disk)
// and the OCR engine (its worker and language data are files). Only the sandbox uses them; in
// the executable each is a module that throws KCT_NOT_IN_EXE when loaded (src/cli/packaging/executable.ts
// turns that into a clear message).
const NOT_EMBEDDED = ['better-sqlite3', '@napi-rs/canvas', 'tesseract.js', '@tesseract.js-data/eng'];

function fail(message) {
  process.stderr.write(`build-exe: ${message}\n`);
  process.exit(1);
}

if (process.platform !== 'linux' || process.arch !== 'x64')
  fail(`builds a Linux x64 executable; this is ${process.platform}-${process.arch}`);
try {
  statSync(join(root, 'dist', 'cli', 'main.js'));
} catch {
  fail('dist/ is not built: run `npm run build` first (npm run build:exe does)');
}
const nodeVersion = execFileSync(nodeBinary, ['--version'], { encoding: 'utf8' }).trim();
const [major, minor] = nodeVersion.slice(1).split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) fail(`${nodeBinary} is Node.js ${nodeVersion}; kct needs 20.19 or newer`);

/** esbuild plugin: what only works beside package.json and node_modules, made to work in one file. */
const selfContained = (_options) => ({
  name: 'kct-self-contained',
  setup(build) {
    const names = new RegExp(`^(${NOT_EMBEDDED.map((name) => name.replace(/[./]/g, '\\$&')).join('|')})(/.*)?$`);
    build.onResolve({ filter: names }, (args) => ({ path: args.path, namespace: 'not-embedded' }));
    build.onLoad({ filter: /.*/, namespace: 'not-embedded' }, (args) => ({
      contents: `throw Object.assign(new Error(${JSON.stringify(`${args.path} is not in the single-file executable`)}), { code: 'KCT_NOT_IN_EXE', module: ${JSON.stringify(args.path)} });`,
      loader: 'js',
    }));
    // the pool's threads load dist/ files (threads/compiled.js); here they run the thread bundle
    build.onResolve({ filter: /^\.\/compiled\.js$/ }, (args) =>
      /[\\/]sandbox[\\/]dist[\\/]threads$/.test(args.resolveDir) ? { path: join(args.resolveDir, 'embedded.js') } : undefined,
    );
    // version.js reads ../package.json at run time; the executable has none beside it
    build.onLoad({ filter: /[\\/]dist[\\/]version\.js$/ }, () => ({
      contents: `export const VERSION = ${JSON.stringify(version)};`,
      loader: 'js',
    }));
    // the better-sqlite3 driver loads modules through createRequire(import.meta.url), which esbuild
    // cannot follow; with the plain `require` it bundles them
    const line = 'const require = createRequire(import.meta.url);';
    build.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(line)) return undefined;
      return { contents: source.replace(line, ''), loader: 'js' };
    });
  },
});

/** One CommonJS bundle as a function expression of (exports, require, module, __filename, __dirname), as main.cjs runs it. */
async function bundle(entry, outfile, options = {}) {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${major}`,
    outfile,
    banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
    footer: { js: '})' },
    plugins: [selfContained(options)],
    legalComments: 'none',
    logLevel: 'error',
  });
  // ocr.js finds the OCR language data through import.meta.url: never reached in the executable
  const warnings = result.warnings.filter(
    (warning) => !/sandbox[\\/](dist[\\/])?engines[\\/]extract[\\/]ocr/.test(warning.location?.file ?? ''),
  );
  if (warnings.length > 0) fail(`esbuild warnings:\n${warnings.map((w) => `  ${w.location?.file}: ${w.text}`).join('\n')}`);
  return outfile;
}

/** Runs the Node binary that goes into the executable (its blob format and code cache are its version's). */
function withTargetNode(args, what) {
  try {
    execFileSync(nodeBinary, args, { stdio: 'pipe' });
  } catch (error) {
    fail(`${nodeBinary} could not make ${what}: ${error.stderr || error.message}`);
  }
}

mkdirSync(work, { recursive: true });
const cli = await bundle(join(here, 'cli.js'), join(work, 'cli.cjs'));
const sandbox = await bundle(join(root, 'packages', 'sandbox', 'dist', 'server.js'), join(work, 'sandbox.cjs'));
const thread = await bundle(join(here, 'thread.js'), join(work, 'thread.cjs'));
/** V8's code cache of a bundle, made by the Node inside (a pool thread starts about twice as fast with it: docs/benchmarks.md). */
const codeCache = (file, name) => {
  const cache = join(work, `${name}.cache`);
  withTargetNode([join(here, 'code-cache.cjs'), file, name, cache], `the code cache of ${name}.cjs`);
  return cache;
};
const cliCache = codeCache(cli, 'cli');
const threadCache = codeCache(thread, 'thread');
const versionFile = join(work, 'version');
writeFileSync(versionFile, version);

const blob = join(work, 'kct.blob');
const seaConfig = join(work, 'sea-config.json');
writeFileSync(
  seaConfig,
  JSON.stringify({
    main: join(here, 'main.cjs'),
    output: blob,
    disableExperimentalSEAWarning: true,
    useCodeCache: true,
    assets: {
      'cli.cjs': cli,
      'cli.cache': cliCache,
      'sandbox.cjs': sandbox,
      'thread.cjs': thread,
      'thread.cache': threadCache,
      version: versionFile,
    },
  }),
);
withTargetNode(['--experimental-sea-config', seaConfig], 'the blob');

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

// sizes in MiB (2^20 bytes), as docs/guides/install.md gives them
const mb = (file) => `${(statSync(file).size / 1024 / 1024).toFixed(1)} MiB`;
process.stderr.write(
  `build-exe: ${output.startsWith(root) ? relative(root, output) : output} (${mb(output)}; Node.js ${nodeVersion} from ${nodeBinary}; CLI ${mb(cli)}, sandbox ${mb(sandbox)}, thread ${mb(thread)})\n`,
);
