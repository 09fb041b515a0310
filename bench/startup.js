// 1. Start-up: `kct --version` and `kct --help` against `node -e 0`, each spawned as a child
// process, wall time from spawn to exit, interleaved (node -e 0, --version, --help, ...), medians;
// and, for information, `kct version`, a command that runs (the CLI's bundle is loaded).
// Then the modules `kct --help` loads, so we can see what start-up costs.
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, fixed, interleave, kctEnv, log, median, ROOT, removeDir, sized, table, tempDir, timeOk } from './lib.js';

const ROUNDS = sized(30, 6, 1);
const WARMUP = sized(3, 1, 0);

export async function run() {
  const configDir = tempDir('kct-bench-cfg-');
  const env = kctEnv(configDir);
  const commands = {
    'node -e 0': ['-e', '0'],
    // for information: what an entry point costs before it does anything (bin/kct.js is CommonJS)
    'node bench/empty.cjs': [join(ROOT, 'bench', 'empty.cjs')],
    'node bench/empty.mjs': [join(ROOT, 'bench', 'empty.mjs')],
    'kct --version': [BIN, '--version'],
    'kct --help': [BIN, '--help'],
    // for information: a command that runs (the CLI's bundle and the command's chunk, scripts/build-bundle.js)
    'kct version': [BIN, 'version'],
  };
  const names = Object.keys(commands);
  try {
    // warm-up rounds (page cache, first spawns): not counted
    await interleave(WARMUP, names, (name) => timeOk(name, process.execPath, commands[name], { env, toFiles: true }));
    const times = await interleave(
      ROUNDS,
      names,
      async (name) => (await timeOk(name, process.execPath, commands[name], { env, toFiles: true })).ms,
    );
    const floor = median(times['node -e 0']);
    const targets = { 'kct --version': 1.25, 'kct --help': 1.5 };
    log(`${ROUNDS} runs each after ${WARMUP} warm-up rounds, interleaved; wall time from spawn to exit`);
    log(
      table(
        ['command', 'median ms', 'min ms', 'max ms', 'ratio to node -e 0', 'target'],
        names.map((name) => [
          name,
          fixed(median(times[name]), 1),
          fixed(Math.min(...times[name]), 1),
          fixed(Math.max(...times[name]), 1),
          name === 'node -e 0' ? '1.00' : fixed(median(times[name]) / floor),
          targets[name] ? `<= ${targets[name]}x` : '',
        ]),
      ),
    );
    log();
    log(await moduleReport(env));
    /** A row for information: a median against node -e 0, with no target. */
    const information = (benchmark, name) => ({
      benchmark,
      kct: `${fixed(median(times[name]), 1)} ms`,
      floor: `${fixed(floor, 1)} ms (node -e 0)`,
      ratio: `${fixed(median(times[name]) / floor)}x`,
      target: '(information)',
    });
    const info = information("  an empty ES module (Node's ESM loader alone)", 'node bench/empty.mjs');
    const commandInfo = information('  kct version (a command that runs: the CLI bundle)', 'kct version');
    return [
      ...['kct --version', 'kct --help'].map((name) => {
        const ratio = median(times[name]) / floor;
        return {
          benchmark: `start-up: ${name}`,
          kct: `${fixed(median(times[name]), 1)} ms`,
          floor: `${fixed(floor, 1)} ms (node -e 0)`,
          ratio: `${fixed(ratio)}x`,
          target: `<= ${targets[name]}x`,
          met: ratio <= targets[name],
        };
      }),
      info,
      commandInfo,
    ];
  } finally {
    removeDir(configDir);
  }
}

/** Runs `kct --version` and `kct --help` once with a module-listing hook and summarises what they load. */
async function moduleReport(env) {
  const version = await listModules(['--version'], env);
  const { builtins, groups } = await listModules(['--help'], env);
  const rows = [...groups]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .map(([group, entry]) => [group, entry.files, fixed(entry.bytes / 1024, 1), group === 'kct dist/' ? entry.names.sort().join(' ') : '']);
  const files = [...groups.values()].reduce((n, e) => n + e.files, 0);
  const bytes = [...groups.values()].reduce((n, e) => n + e.bytes, 0);
  return [
    `Modules loaded by kct --version: ${[...version.paths].map((path) => path.slice(ROOT.length + 1)).join(' ')} and ${[...version.builtins].join(' ')}`,
    `Modules loaded by kct --help: ${files} files, ${fixed(bytes / 1024, 1)} KiB of JavaScript, builtins: ${[...builtins].sort().join(' ') || 'none'}`,
    table(['package', 'files', 'KiB', 'which'], rows),
  ].join('\n');
}

export async function listModules(args, env) {
  const dir = tempDir('kct-bench-mods-');
  const file = join(dir, 'modules.txt');
  try {
    await timeOk('module listing', process.execPath, ['--import', join(ROOT, 'bench', 'module-list.js'), BIN, ...args], {
      env: { ...env, BENCH_MODULES_FILE: file },
    });
    const paths = new Set();
    const builtins = new Set();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const [, spec] = line.split(' ');
      if (!spec) continue;
      if (spec.startsWith('node:')) builtins.add(spec);
      else if (spec.startsWith('file:')) paths.add(fileURLToPath(spec));
      else paths.add(spec);
    }
    const groups = new Map();
    for (const path of paths) {
      const rel = path.startsWith(ROOT) ? path.slice(ROOT.length + 1) : path;
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(rel);
      const group = match ? match[1] : rel.startsWith('dist/') ? 'kct dist/' : rel;
      const entry = groups.get(group) ?? { files: 0, bytes: 0, names: [] };
      entry.files += 1;
      entry.bytes += statSync(path).size;
      entry.names.push(rel.replace(/^dist\//, ''));
      groups.set(group, entry);
    }
    return { paths, builtins, groups };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
