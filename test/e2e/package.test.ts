// The package as a consumer gets it: `npm pack`, the tarball installed into a fresh project, an
// example importing from 'kct' type-checked with the repository's tsc and run against a sandbox.
// The tarball's file list is held to an allowed list (docs/benchmarks.md "Package" has its size).
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, removeDir, startSandbox, tempDir, type Sandbox } from './harness.js';

interface PackEntry { path: string; size: number }
interface PackInfo { filename: string; size: number; unpackedSize: number; files: PackEntry[] }

/** Everything the tarball may hold; anything else (tests, sources, fixtures, bench, the executable) fails. */
const ALLOWED = [
  'package.json', 'README.md', 'bin/kct.js', 'bin/package.json',
  'dist/**/*.js', 'dist/help-cache.json', 'dist/sandbox/store/seed-assignments.json', 'dist/sandbox/engines/grading/feature-vocabulary.json', 'dist/man/*.1',
  // declarations of the library's surface only: the CLI and the sandbox are not imported from 'kct'
  'dist/index.d.ts', 'dist/version.d.ts', 'dist/api/*.d.ts', 'dist/client/*.d.ts',
  'docs/*.md', 'docs/openapi.json',
  'examples/*.{txt,md,pdf,docx}', 'examples/library/*.ts',
];
const REQUIRED = ['package.json', 'README.md', 'bin/kct.js', 'dist/index.js', 'dist/index.d.ts', 'dist/client/client.d.ts', 'dist/api/errors.d.ts', 'docs/library.md', 'examples/library/mark-one.ts'];

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function pack(args: string[]): Promise<PackInfo> {
  const packed = await run('npm', ['pack', '--json', '--ignore-scripts', ...args], ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  return (JSON.parse(packed.stdout) as PackInfo[])[0];
}

describe('the packed tarball', () => {
  it('holds only allowed files, all the required ones, and the declarations the library imports', async () => {
    const info = await pack(['--dry-run']);
    const paths = info.files.map((file) => file.path);
    const allowed = picomatch(ALLOWED, { dot: true });
    expect(paths.filter((path) => !allowed(path))).toEqual([]);
    for (const path of REQUIRED) expect(paths, path).toContain(path);
    for (const path of paths) expect(path).not.toMatch(/^(test|src|bench|scripts|\.ci)\/|fixtures|^dist\/exe|kct-linux-x64|\.tgz$/);
    // every man page package.json names ships
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man: string[] };
    for (const page of manifest.man) expect(paths).toContain(page.replace(/^\.\//, ''));
    // a declaration that imports one left out would break a consumer's type check
    for (const path of paths.filter((p) => p.endsWith('.d.ts'))) {
      const text = readFileSync(join(ROOT, path), 'utf8');
      for (const [, target] of text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
        expect(paths, `${path} imports ${target}`).toContain(join(path, '..', `${target}.d.ts`));
      }
    }
  });
});

describe('a consumer project', () => {
  let sandbox: Sandbox;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir('kct-consumer-');
    sandbox = await startSandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
    removeDir(dir);
  });

  it('installs the tarball, type-checks an example importing from kct, and marks an essay with it', async () => {
    const info = await pack(['--pack-destination', dir]);
    const project = join(dir, 'project');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // the dependencies are in npm's cache after `npm ci`; a cache without their metadata asks the registry
    const flags = ['install', '--ignore-scripts', '--omit=optional', '--no-audit', '--no-fund', join(dir, info.filename)];
    let installed = await run('npm', [...flags, '--offline'], project);
    if (installed.code !== 0 && /ENOTCACHED/.test(installed.stderr)) installed = await run('npm', [...flags, '--prefer-offline'], project);
    expect(installed.code, installed.stderr).toBe(0);

    copyFileSync(join(ROOT, 'examples', 'library', 'mark-one.ts'), join(project, 'src', 'mark-one.ts'));
    copyFileSync(join(ROOT, 'examples', 'sample-essay.txt'), join(project, 'sample-essay.txt'));
    // every ts block of docs/library.md is type-checked with it (each is a module of its own)
    const blocks = [...readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
    expect(blocks.length).toBeGreaterThan(8);
    blocks.forEach((block, index) => writeFileSync(join(project, 'src', `doc-${index + 1}.ts`), `${block}\nexport {};\n`));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023'], strict: true, noEmitOnError: true,
        // the consumer's own @types/node (borrowed from the repository); checking every library's
        // declarations takes 30 s on a busy machine, and kct's are tsc's own output, whose imports the test above checks
        types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')], skipLibCheck: true,
        rootDir: 'src', outDir: 'library',
      },
      include: ['src'],
    }));
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], project);
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);

    const example = await run(process.execPath, [join('library', 'mark-one.js'), sandbox.baseUrl, sandbox.keys.user, sandbox.keys.broke], project);
    expect(example.code, example.stderr).toBe(0);
    const lines = example.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ step: 'credits', credits: expect.any(Number), models: expect.any(Number) });
    expect(lines[1]).toMatchObject({ step: 'marked', status: 'SUCCESS', score: expect.any(Number), max_score: expect.any(Number) });
    expect(lines[1].criteria).toBeGreaterThan(0);
    expect(lines.slice(2)).toEqual([
      { step: 'caught', error: 'NotFoundError', status: 404, code: expect.any(String) },
      { step: 'caught', error: 'AuthenticationError', status: 401, is_api_error: true },
      { step: 'caught', error: 'InsufficientCreditsError', status: 402 },
    ]);
    // the key is never printed, not even in an error
    expect(example.stdout + example.stderr).not.toContain(sandbox.keys.user);
  }, 180_000);
});
