// The packages as users get them: `npm pack` of both workspaces, each tarball held to an allowed
// list, then installed globally into a private prefix, offline from the local tarballs (npm's
// cache holds the dependencies after `npm ci`): kct alone (kct --version, kct doctor against a
// sandbox, kct sandbox saying how to get the sandbox), and the library imported from the installed
// package, loading no CLI or sandbox code, in a consumer project that type-checks docs/library.md's
// examples against it. kct with kct-sandbox, installed as the docs say: test/e2e/install-docs.test.ts.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installGlobally, packWorkspaces, run } from '../../bench/packed.js';
import { kctEnv, ROOT, removeDir, type Sandbox, startSandbox, tempDir } from './harness.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface PackEntry {
  path: string;
  size: number;
}
interface PackInfo {
  name: string;
  filename: string;
  files: PackEntry[];
}

/** Everything a tarball may hold; anything else (tests, sources, fixtures, bench, the executable) fails. */
const ALLOWED: Record<string, string[]> = {
  kct: [
    'package.json',
    'README.md',
    'bin/kct.js',
    'bin/package.json',
    'dist/**/*.js',
    'dist/help-cache.json',
    'dist/man/*.1',
    // declarations of the library's surface only: the CLI is not imported from 'kct'
    'dist/index.d.ts',
    'dist/version.d.ts',
    'dist/api/*.d.ts',
    'dist/client/*.d.ts',
  ],
  'kct-sandbox': [
    'package.json',
    'README.md',
    'bin/kct-sandbox.js',
    'dist/**/*.{js,d.ts}',
    'dist/store/seed-assignments.json',
    'dist/engines/grading/feature-vocabulary.json',
  ],
};
const REQUIRED: Record<string, string[]> = {
  kct: [
    'package.json',
    'README.md',
    'bin/kct.js',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/client/client.d.ts',
    'dist/api/errors.d.ts',
    'dist/cli/main.js',
  ],
  'kct-sandbox': ['package.json', 'bin/kct-sandbox.js', 'dist/server.js', 'dist/threads/thread-main.js'],
};

let work: string;
let tarballs: Record<string, string>;
let sandbox: Sandbox;

beforeAll(async () => {
  work = tempDir('kct-packed-');
  tarballs = await packWorkspaces(work);
  sandbox = await startSandbox();
}, 240_000);

afterAll(async () => {
  await sandbox?.stop();
  removeDir(work);
});

describe('the packed tarballs', () => {
  it.each(['kct', 'kct-sandbox'])('%s holds only allowed files, all the required ones', async (name) => {
    const listed = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', ...(name === 'kct' ? [] : ['-w', name])]);
    expect(listed.code, listed.stderr).toBe(0);
    const [info] = JSON.parse(listed.stdout) as PackInfo[];
    const paths = info.files.map((file) => file.path);
    const allowed = picomatch(ALLOWED[name], { dot: true });
    expect(paths.filter((path) => !allowed(path))).toEqual([]);
    for (const path of REQUIRED[name].filter((p) => p !== 'README.md' || name !== 'kct')) expect(paths, path).toContain(path);
    if (name === 'kct') {
      // every man page package.json names ships; no sandbox code
      const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man: string[] };
      for (const page of manifest.man) expect(paths).toContain(page.replace(/^\.\//, ''));
      expect(paths.filter((path) => /sandbox[/\\](server|store|engines)/.test(path))).toEqual([]);
      // a declaration that imports one left out would break a consumer's type check
      for (const path of paths.filter((p) => p.endsWith('.d.ts'))) {
        const text = readFileSync(join(ROOT, path), 'utf8');
        for (const [, target] of text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g))
          expect(paths, `${path} imports ${target}`).toContain(join(path, '..', `${target}.d.ts`));
      }
    }
  });
});

describe('kct installed alone', () => {
  let installed: Awaited<ReturnType<typeof installGlobally>>;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    installed = await installGlobally(tempDir('kct-prefix-'), [tarballs.kct]);
    env = { ...kctEnv(tempDir()), PATH: `${installed.bin}:${process.env.PATH}` };
  }, 240_000);

  it('is light: no native addon, no install script, at most 60 packages and 25 MB', () => {
    expect(installed.nativeAddons).toEqual([]);
    expect(installed.installScripts).toEqual([]);
    expect(installed.packages).toBeLessThanOrEqual(60);
    expect(installed.megabytes).toBeLessThanOrEqual(25);
  });

  it('answers kct --version and a kct doctor against a sandbox', async () => {
    const version = await run('kct', ['--version'], { env: env as NodeJS.ProcessEnv });
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    const doctor = await run('kct', ['doctor', '--json'], {
      env: { ...env, KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys.user } as NodeJS.ProcessEnv,
    });
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(JSON.parse(doctor.stdout)).toMatchObject({ ok: true });
  });

  it('kct sandbox without the sandbox package says in one line how to get it, and exits 2', async () => {
    const missing = await run('kct', ['sandbox', '--port', '0'], { env: env as NodeJS.ProcessEnv });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toEqual([
      `error: kct sandbox needs the sandbox package, which is not installed beside this kct: in the folder of the tarballs \`npm run pack\` wrote, npm install -g --allow-scripts=better-sqlite3,tesseract.js ./kct-${VERSION}.tgz ./kct-sandbox-${VERSION}.tgz (not on the npm registry yet)`,
    ]);
  });

  it('the library, imported from the installed package, loads no CLI and no sandbox code', async () => {
    const folder = join(installed.modules, '..');
    // every module the import loads, through a module hook (module.register, Node 20.6+)
    writeFileSync(
      join(folder, 'hooks.mjs'),
      [
        'let port;',
        'export async function initialize(data) { port = data.port; }',
        'export async function load(url, context, next) { port.postMessage(url); return next(url, context); }',
      ].join('\n'),
    );
    writeFileSync(
      join(folder, 'probe.mjs'),
      [
        "import { register } from 'node:module';",
        "import { MessageChannel } from 'node:worker_threads';",
        'const { port1, port2 } = new MessageChannel();',
        'const seen = [];',
        "port1.on('message', (url) => seen.push(url));",
        "register('./hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });",
        `const kct = await import(${JSON.stringify(join(installed.modules, 'kct', 'dist', 'index.js'))});`,
        'await new Promise((resolve) => setTimeout(resolve, 200));',
        'port1.close();',
        "process.stdout.write(JSON.stringify({ client: typeof kct.KctClient, errors: typeof kct.ApiError, seen: seen.filter((url) => url.startsWith('file:')) }));",
      ].join('\n'),
    );
    const ran = await run(process.execPath, [join(folder, 'probe.mjs')], { env: env as NodeJS.ProcessEnv });
    expect(ran.code, ran.stderr).toBe(0);
    const { client, errors, seen } = JSON.parse(ran.stdout) as { client: string; errors: string; seen: string[] };
    expect([client, errors]).toEqual(['function', 'function']);
    expect(seen.some((url) => url.includes('/kct/dist/client/'))).toBe(true);
    expect(seen.filter((url) => /\/kct\/dist\/(cli|commands)\//.test(url))).toEqual([]);
    expect(seen.filter((url) => /kct-sandbox|fastify|tesseract|better-sqlite3/.test(url))).toEqual([]);
  });

  it('a consumer project type-checks the library examples against it and marks an essay', async () => {
    const project = join(work, 'project');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const flags = ['install', '--ignore-scripts', '--omit=optional', '--no-audit', '--no-fund', tarballs.kct];
    let added = await run('npm', [...flags, '--offline'], { cwd: project });
    if (added.code !== 0 && /ENOTCACHED/.test(added.stderr)) added = await run('npm', [...flags, '--prefer-offline'], { cwd: project });
    expect(added.code, added.stderr).toBe(0);
    copyFileSync(join(ROOT, 'examples', 'library', 'mark-one.ts'), join(project, 'src', 'mark-one.ts'));
    copyFileSync(join(ROOT, 'examples', 'sample-essay.txt'), join(project, 'sample-essay.txt'));
    // every ts block of docs/library.md is type-checked with it (each is a module of its own)
    const blocks = [...readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
    expect(blocks.length).toBeGreaterThan(8);
    blocks.forEach((block, index) => writeFileSync(join(project, 'src', `doc-${index + 1}.ts`), `${block}\nexport {};\n`));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023'],
          strict: true,
          noEmitOnError: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          skipLibCheck: true,
          rootDir: 'src',
          outDir: 'library',
        },
        include: ['src'],
      }),
    );
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {
      cwd: project,
    });
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
    const example = await run(process.execPath, [join('library', 'mark-one.js'), sandbox.baseUrl, sandbox.keys.user, sandbox.keys.broke], {
      cwd: project,
    });
    expect(example.code, example.stderr).toBe(0);
    const lines = example.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[1]).toMatchObject({ step: 'marked', status: 'SUCCESS', score: expect.any(Number) });
    expect(example.stdout + example.stderr).not.toContain(sandbox.keys.user);
  }, 180_000);
});
