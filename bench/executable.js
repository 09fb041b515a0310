// The single-file executable (npm run build:exe): its size, and its start-up beside kct from npm
// and `node -e 0`, interleaved, medians; peak RSS of `kct version` both ways (GNU time's %M).
// Built from KCT_SEA_NODE (else this Node) into a temporary folder; not in the default run.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, fixed, interleave, kctEnv, log, median, ROOT, removeDir, sized, table, tempDir, timeOk } from './lib.js';

const ROUNDS = sized(20, 6, 1);
const WARMUP = sized(3, 1, 0);
const MIB = 1024 * 1024;

export async function run() {
  const dir = tempDir('kct-bench-exe-');
  const exe = join(dir, 'kct-linux-x64');
  const node = process.env.KCT_SEA_NODE ?? process.execPath;
  const env = kctEnv(dir);
  try {
    const t0 = Date.now();
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-exe.js'), '--node', node, '--out', exe], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const buildSeconds = (Date.now() - t0) / 1000;
    const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    log(
      table(
        ['file', 'MiB'],
        [
          [`dist/kct-linux-x64 (Node.js ${nodeVersion} inside)`, fixed(statSync(exe).size / MIB, 1)],
          [`the Node.js binary alone (${node})`, fixed(statSync(node).size / MIB, 1)],
          // where scripts/build-exe.js writes its bundles
          ['the CLI bundle (dist/exe/cli.cjs)', fixed(statSync(join(ROOT, 'dist', 'exe', 'cli.cjs')).size / MIB, 1)],
          ['the sandbox bundle (dist/exe/sandbox.cjs)', fixed(statSync(join(ROOT, 'dist', 'exe', 'sandbox.cjs')).size / MIB, 1)],
        ],
      ),
    );
    log(`built in ${fixed(buildSeconds, 1)} s`);
    log();

    const contenders = {
      'node -e 0': [process.execPath, ['-e', '0']],
      'npm kct --version': [process.execPath, [BIN, '--version']],
      'exe --version': [exe, ['--version']],
      'npm kct version': [process.execPath, [BIN, 'version']],
      'exe version': [exe, ['version']],
      'npm kct one-pass --help': [process.execPath, [BIN, 'one-pass', '--help']],
      'exe one-pass --help': [exe, ['one-pass', '--help']],
    };
    const names = Object.keys(contenders);
    const once = (name) => timeOk(name, contenders[name][0], contenders[name][1], { env, toFiles: true });
    await interleave(WARMUP, names, once);
    const times = await interleave(ROUNDS, names, async (name) => (await once(name)).ms);
    const floor = median(times['node -e 0']);
    log(`${ROUNDS} runs each after ${WARMUP} warm-up rounds, interleaved; wall time from spawn to exit`);
    log(
      table(
        ['command', 'median ms', 'min ms', 'ratio to node -e 0'],
        names.map((name) => [name, fixed(median(times[name]), 1), fixed(Math.min(...times[name]), 1), fixed(median(times[name]) / floor)]),
      ),
    );
    log();
    const rss = (command, args) => {
      const file = join(dir, 'rss');
      execFileSync('/usr/bin/time', ['-f', '%M', '-o', file, command, ...args], { env, stdio: 'ignore' });
      return Number(readFileSync(file, 'utf8').trim().split('\n').pop()) / 1024;
    };
    const npmRss = median(Array.from({ length: 5 }, () => rss(process.execPath, [BIN, 'version'])));
    const exeRss = median(Array.from({ length: 5 }, () => rss(exe, ['version'])));
    log(
      table(
        ['peak RSS of `kct version`', 'MB'],
        [
          ['npm kct', fixed(npmRss, 1)],
          ['exe', fixed(exeRss, 1)],
        ],
      ),
    );
    return ['--version', 'version', 'one-pass --help'].map((command) => ({
      benchmark: `executable: kct ${command}`,
      kct: `${fixed(median(times[`exe ${command}`]), 1)} ms`,
      floor: `${fixed(median(times[`npm kct ${command}`]), 1)} ms (npm kct)`,
      ratio: `${fixed(median(times[`exe ${command}`]) / median(times[`npm kct ${command}`]))}x`,
      target: '(information)',
    }));
  } finally {
    removeDir(dir);
  }
}
