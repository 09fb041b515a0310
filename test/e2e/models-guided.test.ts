// `kct models new`, the guided flow, as a person runs it: the built kct under a pseudo-terminal
// (util-linux `script`), with $EDITOR editing the rubric, then a one-pass with the new model.
// The rest of model building runs in-process in test/integration/models.test.ts.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { answering, asUser, BIN, kctEnv, parseJson, ROOT, type Sandbox, tempDir, useSandbox } from './harness.js';

const EXAMPLES = join(ROOT, 'examples');
const PAPER_PDF = join(EXAMPLES, 'question-paper.pdf');
const RUBRIC_PDF = join(EXAMPLES, 'rubric.pdf');
const ESSAY = join(EXAMPLES, 'sample-essay.txt');

/** kct models new of the example paper and rubric, its previews in `dir`. */
const guided = (dir: string, ...more: string[]) => [
  'models',
  'new',
  PAPER_PDF,
  '--rubric',
  RUBRIC_PDF,
  '--total-score',
  '30',
  '--cum-method',
  'sum',
  '--dir',
  dir,
  ...more,
];

const shared = useSandbox({ args: ['--training-delay', '500'] });

/** An $EDITOR script that changes nothing (the person accepts the previews as they are). */
function noEdits(work: string): string {
  const editor = join(work, 'editor.mjs');
  writeFileSync(editor, '');
  return editor;
}

/** A person's terminal (CI unset) with the sandbox's user key, and $EDITOR running the script `editor` when given. */
const terminalEnv = (sandbox: Sandbox, editor?: string) => ({
  ...kctEnv(tempDir(), {
    KCT_BASE_URL: sandbox.baseUrl,
    KCT_API_KEY: sandbox.keys.user,
    ...(editor === undefined ? {} : { EDITOR: `${process.execPath} ${editor}` }),
  }),
  CI: undefined,
});

describe('kct models new (guided)', () => {
  it('runs the whole flow under a pseudo-terminal, with $EDITOR editing the rubric', async () => {
    const { sandbox } = shared;
    const work = tempDir('kct-models-');
    const editor = join(work, 'editor.mjs');
    writeFileSync(
      editor,
      `import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
for (const p of process.argv.slice(2)) {
  if (p.endsWith('rubrics.yaml')) writeFileSync(p, readFileSync(p, 'utf8').replace('item: Organisation', 'item: Structure of the letter'));
}
`,
    );
    const dir = join(work, 'guided');
    const env = {
      ...kctEnv(tempDir(), {
        KCT_BASE_URL: sandbox.baseUrl,
        KCT_API_KEY: sandbox.keys.user,
        EDITOR: `${process.execPath} ${editor}`,
        TERM: 'dumb',
      }),
      CI: undefined,
    };
    const command = [process.execPath, BIN, ...guided(dir, '--yes')].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const result = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => {
        output += c.toString();
      });
      child.stderr.on('data', (c: Buffer) => {
        output += c.toString();
      });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`guided flow timed out:\n${output}`));
      }, 60_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
      child.stdin.end();
    });
    expect(result.code, result.output).toBe(0);
    for (const stepName of [
      '1/5 Reading the question paper',
      '2/5 Reading the rubric',
      '3/5 Check and edit',
      '4/5 Create the model',
      '5/5 Training',
    ])
      expect(result.output).toContain(stepName);
    const id = /Model (\d+) is ready/.exec(result.output)?.[1];
    expect(id, result.output).toBeDefined();
    expect(parseYaml(readFileSync(join(dir, 'rubrics.yaml'), 'utf8')).rubrics[3].item).toBe('Structure of the letter');
    const mark = await asUser(sandbox)(['one-pass', ESSAY, '--model', id!, '--json']);
    expect(mark.code, `stdout: ${mark.stdout}\nstderr: ${mark.stderr}`).toBe(0);
    expect(parseJson<{ evaluation: { item: string }[] }>(mark.stdout).evaluation.map((e) => e.item)).toContain('Structure of the letter');
    // the same command again: the edited previews in --dir are kept, and the way to use them said, before anything is asked
    const again = await answering(guided(dir, '--yes'), env, []);
    expect(again.code, again.output).toBe(2);
    expect(again.output).toContain('kct does not overwrite previews you may have edited');
    expect(again.output).toContain(
      `kct models create --questions ${join(dir, 'questions.yaml')} --rubrics ${join(dir, 'rubrics.yaml')} --wait`,
    );
    expect(again.output).not.toContain('--force');
    expect(again.output).not.toContain('1/5');
  });

  it('without --total-score and --cum-method, asks them once the rubric is read: the method, then the total of an average, saying what its criteria add up to', async () => {
    const { sandbox } = shared;
    const work = tempDir('kct-models-asked-');
    const editor = noEdits(work);
    const dir = join(work, 'asked');
    const env = terminalEnv(sandbox, editor);
    const args = ['models', 'new', PAPER_PDF, '--rubric', RUBRIC_PDF, '--dir', dir, '--yes'];
    const run = await answering(args, env, [
      ['How do criterion scores make the total?', 'average\r'],
      ['(its criteria add up to 30):', '40\r'],
    ]);
    expect(run.code, run.output).toBe(0);
    // read first, then asked: the question knows the rubric
    expect(run.output.indexOf('2/5 Reading the rubric')).toBeLessThan(run.output.indexOf('Total score of the rubric'));
    expect(run.output.indexOf('1/5')).toBeLessThan(run.output.indexOf('Total score of the rubric'));
    // the service's guess at the total it was not sent is not printed as decided before the question
    expect(run.output).not.toMatch(/total_score \d+ \((sum|average)\)/);
    const file = readFileSync(join(dir, 'rubrics.yaml'), 'utf8');
    expect(parseYaml(file)).toMatchObject({ total_score: 40, cum_method: 'average' });
    // what the service said of the total it was not sent is not said, nor kept in the file's header
    expect(run.output).not.toContain('No total_score was sent');
    expect(file).not.toContain('No total_score was sent');
    expect(run.output).toContain('Total score: 40 (average of the criteria, scaled to the total)');
  });

  it('previews left invalid: stopped with the models create command that uses them once fixed', async () => {
    const { sandbox } = shared;
    const work = tempDir('kct-models-broken-');
    const editor = join(work, 'editor.mjs');
    writeFileSync(
      editor,
      `import { writeFileSync } from 'node:fs';
for (const p of process.argv.slice(2)) if (p.endsWith('rubrics.yaml')) writeFileSync(p, 'rubrics: [');
`,
    );
    const dir = join(work, 'broken');
    const env = terminalEnv(sandbox, editor);
    const run = await answering(guided(dir, '--subject', 'English'), env, [['Edit the files again?', 'n\r']]);
    expect(run.code, run.output).toBe(2);
    expect(run.output).toContain(`stopped: the previews are not valid yet (kept in ${dir})`);
    expect(run.output).toContain(
      // --subject is in neither preview: the command carries it
      `Fix them, then create the model from them: kct models create --questions ${join(dir, 'questions.yaml')} --rubrics ${join(dir, 'rubrics.yaml')} --subject English --wait`,
    );
  });

  it('Ctrl-C at the question of the total keeps nothing: the folder it made is gone, and the same command starts afresh', async () => {
    const { sandbox } = shared;
    const work = tempDir('kct-models-stopped-');
    const editor = noEdits(work);
    const made = join(work, 'term');
    const dir = join(made, 'previews');
    const env = terminalEnv(sandbox, editor);
    const args = ['models', 'new', PAPER_PDF, '--rubric', RUBRIC_PDF, '--dir', dir, '--yes'];
    const stopped = await answering(args, env, [['How do criterion scores make the total?', '\x03']]);
    expect(stopped.code, stopped.output).toBe(130);
    expect(stopped.output).toContain('cancelled; nothing was created');
    // both previews were written before the question; half a pair would make the next run refuse
    expect(existsSync(made), stopped.output).toBe(false);
    // without --dir, the temporary folder it made goes too
    const temporary = tempDir('kct-models-tmp-');
    const withoutDir = args.filter((arg, at) => arg !== '--dir' && args[at - 1] !== '--dir');
    const stoppedAgain = await answering(withoutDir, { ...env, TMPDIR: temporary }, [['How do criterion scores make the total?', '\x03']]);
    expect(stoppedAgain.code, stoppedAgain.output).toBe(130);
    expect(readdirSync(temporary), stoppedAgain.output).toEqual([]);
    // a sum is out of what its criteria add up to: not asked (another total would be refused later)
    const again = await answering(args, env, [['How do criterion scores make the total?', 'sum\r']]);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain('Total score: 30, what the criteria add up to.');
    expect(again.output).not.toContain('Total score of the rubric');
    expect(again.output).not.toContain('already exist');
    expect(parseYaml(readFileSync(join(dir, 'rubrics.yaml'), 'utf8'))).toMatchObject({ total_score: 30, cum_method: 'sum' });
  });

  it('Ctrl-C while the previews are checked keeps them, and says the models create command that uses them', async () => {
    const { sandbox } = shared;
    const dir = join(tempDir('kct-models-kept-'), 'kept');
    // no $EDITOR: kct names the files and waits for Enter
    const env = terminalEnv(sandbox);
    const run = await answering(guided(dir), env, [['Done editing?', '\x03']]);
    expect(run.code, run.output).toBe(130);
    expect(run.output).toContain('cancelled; nothing was created');
    expect(run.output.replace(/\s+/g, ' ')).toContain(
      `The previews are kept in ${dir}; create the model from them with: kct models create --questions ${join(dir, 'questions.yaml')} --rubrics ${join(dir, 'rubrics.yaml')} --wait`,
    );
    expect(existsSync(join(dir, 'questions.yaml')) && existsSync(join(dir, 'rubrics.yaml'))).toBe(true);
  });
});
