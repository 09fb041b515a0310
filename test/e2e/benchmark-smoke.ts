// Runs benchmarks' smoke pass as `npm run bench` would run them (a process of its own, the built
// packages) and prints what they reported; fails only when one could not run.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

export async function smokeRun(names: string[]): Promise<void> {
  const child = spawn(process.execPath, [join(ROOT, 'bench', 'run.js'), '--smoke', ...names], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  // reported, not asserted: the figures of a smoke pass mean nothing
  console.log(output);
  expect(output).not.toContain('could not run');
  expect(code, output.slice(-3000)).toBe(0);
}
