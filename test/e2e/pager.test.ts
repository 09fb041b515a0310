// Long output goes through a pager on a terminal (a pseudo-terminal from `script`), chosen from
// KCT_PAGER, then PAGER, else `less -FRX`; never when piped, with --no-pager, or with "cat". The
// pagers here are a recorder script that keeps its arguments, its LESS variable and its input.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTerminal, kctEnv, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
let bin: string;

beforeAll(() => {
  bin = join(tempDir('kct-pager-'), 'bin');
  mkdirSync(bin);
  const recorder = `#!/bin/sh
out="$PAGER_RECORD"
printf '%s' "$*" > "$out/args"
printf '%s' "$LESS" > "$out/less"
cat > "$out/input"
`;
  writeFileSync(join(bin, 'recorder'), recorder);
  // the default pager, found on PATH like the real less
  writeFileSync(join(bin, 'less'), recorder);
  chmodSync(join(bin, 'recorder'), 0o755);
  chmodSync(join(bin, 'less'), 0o755);
});

function environment(extra: Record<string, string | undefined> = {}): { env: Record<string, string | undefined>; record: string } {
  const record = tempDir('kct-paged-');
  const env = kctEnv(tempDir(), {
    KCT_BASE_URL: shared.sandbox.baseUrl,
    KCT_API_KEY: shared.sandbox.keys.user,
    PATH: `${bin}:${process.env.PATH}`,
    PAGER_RECORD: record,
    // a pager runs only where kct could ask a question: not in CI (which kctEnv sets)
    CI: undefined,
    ...extra,
  });
  return { env, record };
}

const paged = (record: string) => (existsSync(join(record, 'input')) ? readFileSync(join(record, 'input'), 'utf8') : undefined);

describe('pager', () => {
  it('on a terminal, kct models goes through less -FRX by default, with LESS=FRX', async () => {
    const { env, record } = environment();
    const { code, output } = await inTerminal(['models'], env);
    expect(code).toBe(0);
    expect(paged(record)).toContain('Persuasive essay: school uniforms');
    expect(readFileSync(join(record, 'args'), 'utf8')).toBe('-FRX');
    expect(readFileSync(join(record, 'less'), 'utf8')).toBe('FRX');
    expect(output).not.toContain('Persuasive essay');
  });

  it('KCT_PAGER comes before PAGER; PAGER is used alone; a LESS of your own is kept', async () => {
    const both = environment({ KCT_PAGER: 'recorder --from-kct-pager', PAGER: 'recorder --from-pager' });
    await inTerminal(['api', '/credits'], both.env);
    expect(readFileSync(join(both.record, 'args'), 'utf8')).toBe('--from-kct-pager');
    expect(paged(both.record)).toContain('"billing_mode": "owner_user"');
    const pager = environment({ PAGER: 'recorder --from-pager', LESS: 'S' });
    await inTerminal(['result', 'tsk_missing'], pager.env);
    expect(readFileSync(join(pager.record, 'args'), 'utf8')).toBe('--from-pager');
    expect(readFileSync(join(pager.record, 'less'), 'utf8')).toBe('S');
  });

  it('never with --no-pager, with KCT_PAGER=cat or "", or for commands that are not long', async () => {
    for (const [args, extra] of [
      [['models', '--no-pager'], {}],
      [['models'], { KCT_PAGER: 'cat', PAGER: 'recorder' }],
      [['models'], { KCT_PAGER: '', PAGER: 'recorder' }],
      [['credits'], { PAGER: 'recorder' }],
    ] as [string[], Record<string, string>][]) {
      const { env, record } = environment(extra);
      const { code, output } = await inTerminal(args, env);
      expect(code, args.join(' ')).toBe(0);
      expect(paged(record), `${args.join(' ')} ${JSON.stringify(extra)}`).toBeUndefined();
      expect(output).toMatch(args[0] === 'credits' ? /credits/ : /Persuasive essay/);
    }
  });

  it('never when stdout is not a terminal', async () => {
    const { env, record } = environment({ PAGER: 'recorder' });
    const run = await shared.kct(['models'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Persuasive essay');
    expect(paged(record)).toBeUndefined();
  });

  it('a pager that cannot start is reported and the output printed directly', async () => {
    const { env } = environment({ KCT_PAGER: 'no-such-pager-xyz' });
    const { code, output } = await inTerminal(['models'], env);
    expect(code).toBe(0);
    expect(output).toContain('the pager "no-such-pager-xyz" (from KCT_PAGER) could not be started');
    expect(output).toContain('Persuasive essay');
  });
});
