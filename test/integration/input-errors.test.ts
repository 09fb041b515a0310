// Mistakes a new user makes with local input, settings and the sandbox's own start-up: each gets
// a message naming what was wrong and what to do, the documented exit code, and no charge.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { creditsOf, FIXTURES, kctEnv, parseJson, runKct, tempDir, useSandbox } from './harness.js';

const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
const shared = useSandbox();

describe('answers', () => {
  it('a folder leaves out Markdown (a README or notes), so it is never marked and charged; a named .md is sent', async () => {
    const dir = tempDir('kct-md-');
    writeFileSync(join(dir, 'ann.txt'), `${essay} (ann, markdown test)`);
    writeFileSync(join(dir, 'README.md'), '# Marking notes\nDo not mark this file.');
    const before = await creditsOf(shared.kct);
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson']);
    expect(run.code).toBe(0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => parseJson<{ file: string }>(line));
    expect(rows.map((row) => row.file)).toEqual([join(dir, 'ann.txt')]);
    expect(await creditsOf(shared.kct)).toBe(before - 1);
    const named = await shared.kct(['one-pass', join(dir, 'README.md'), '--model', '12', '--no-wait', '--json']);
    expect(named.code).toBe(0);
    // let it finish here, so its charge does not land inside a later test's before/after
    const { task_id } = parseJson<{ task_id: string }>(named.stdout);
    expect((await shared.kct(['status', task_id, '--watch', '--json'])).code).toBe(0);
  });

  it('- given twice is refused as such, not blamed on --files-from', async () => {
    const run = await shared.kct(['one-pass', '-', '-', '--model', '12'], { input: 'An answer.' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('- is given more than once');
    expect(run.stderr).not.toContain('--files-from');
  });

  it('a missing answer file whose folder holds it under another extension or case: the hint names that file', async () => {
    const dir = tempDir('kct-near-');
    writeFileSync(join(dir, 'essay.docx'), 'not read');
    writeFileSync(join(dir, 'Notes.TXT'), 'not read');
    const other = await shared.kct(['one-pass', join(dir, 'essay.txt'), '--model', '12']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`hint: Check the path: ${join(dir, 'essay.docx')} is there.`);
    const cased = await shared.kct(['one-pass', join(dir, 'notes.txt'), '--model', '12']);
    expect(cased.stderr).toContain(`hint: Check the path: ${join(dir, 'Notes.TXT')} is there.`);
  });

  it('a missing answer file: check the path; one that reads as text points to --text and -; a missing upload does not', async () => {
    const answer = await shared.kct(['one-pass', 'no-such-answer.txt', '--model', '12']);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toContain('file not found: no-such-answer.txt');
    expect(answer.stderr).toContain('hint: Check the path.');
    expect(answer.stderr).not.toContain('standard input');
    const typed = await shared.kct(['one-pass', 'School uniforms limit self expression', '--model', '12']);
    expect(typed.code).toBe(2);
    expect(typed.stderr).toContain('pass it with --text "<answer>" (or on standard input, with -)');
    const upload = await shared.kct(['upload', '-']);
    expect(upload.code).toBe(2);
    expect(upload.stderr).toContain('file not found: -');
    expect(upload.stderr).not.toContain('standard input');
  });

  it('a file just over 20 MiB says by how much, in bytes', async () => {
    const path = join(tempDir(), 'big.txt');
    writeFileSync(path, Buffer.alloc(21_000_000, 'a'));
    const run = await shared.kct(['one-pass', path, '--model', '12']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is 21,000,000 bytes (20.03 MiB); the limit is 20,971,520 bytes (20 MiB) per file');
  });

  it('--resume given a folder is a usage error before anything is sent', async () => {
    const dir = tempDir();
    const answer = join(dir, 'bob.txt');
    writeFileSync(answer, `${essay} (bob, resume folder)`);
    const before = await creditsOf(shared.kct);
    const run = await shared.kct(['one-pass', answer, '--model', '12', '--resume', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the journal ${dir} is a folder`);
    expect(run.stderr).toContain('--resume marks.journal');
    expect(await creditsOf(shared.kct)).toBe(before);
  });

  it('csv escapes a cell that would run as a spreadsheet formula', async () => {
    const dir = tempDir('kct-formula-');
    writeFileSync(join(dir, '=HYPERLINK.txt'), `${essay} (formula test)`);
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'csv']);
    expect(run.code).toBe(0);
    const [header, row] = parse(run.stdout) as string[][];
    expect(row[header.indexOf('student_id')]).toBe("'=HYPERLINK");
    expect(Number(row[header.indexOf('score')])).toBeGreaterThan(0);
  });

  it('rewrite --item matches a criterion ignoring case, as the service does', async () => {
    const done = parseJson<{ task_id: string }>(
      (await shared.kct(['one-pass', '--model', '12', '--text', `${essay} rewrite case`, '--json'])).stdout,
    );
    const run = await shared.kct(['rewrite', done.task_id, '--style', 'bullet_points', '--item', 'organisation', '--json']);
    expect(run.code).toBe(0);
    const sections = parseJson<{ target_item?: string; sections: { item: string; comment: string }[] }>(run.stdout).sections;
    expect(sections.find((s) => s.item === 'Organisation')?.comment).toMatch(/^- /m);
  });

  it('rewrite of a class run\'s --json (a list), or of JSON that is no result, says what it holds, not "task undefined"', async () => {
    const dir = tempDir('kct-rewrite-list-');
    for (const name of ['a', 'b']) writeFileSync(join(dir, `${name}.txt`), `${essay} rewrite list ${name}`);
    const listed = await shared.kct(['one-pass', join(dir, 'a.txt'), join(dir, 'b.txt'), '--model', '12', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = parseJson<{ task_id: string }[]>(listed.stdout);
    const list = join(dir, 'class.json');
    writeFileSync(list, listed.stdout);
    const many = await shared.kct(['rewrite', list, '--style', 'paragraph']);
    expect(many.code).toBe(2);
    expect(many.stderr).toContain(
      `error: the result file ${list} holds 2 results (a class run's --json?): feedback is rewritten one answer at a time`,
    );
    expect(many.stderr).toContain(`kct rewrite ${rows[0].task_id}`);
    expect(many.stderr).not.toContain('undefined');
    // a list of one is that one result
    const one = join(dir, 'one.json');
    writeFileSync(one, JSON.stringify([rows[1]]));
    const single = await shared.kct(['rewrite', one, '--style', 'paragraph', '--json']);
    expect(single.code, single.stderr).toBe(0);
    for (const input of ['{}', '[{}]']) {
      const empty = await shared.kct(['rewrite', '-', '--style', 'paragraph'], { input });
      expect(empty.code).toBe(2);
      expect(empty.stderr).toContain('error: standard input is not an evaluation result: it has no task_id and no evaluation');
    }
    const none = await shared.kct(['rewrite', '-', '--style', 'paragraph'], { input: '[]' });
    expect(none.stderr).toContain('error: standard input is an empty list: it holds no result to rewrite');
  });
});

describe('refusals name what to do (a hint line), before anything is sent', () => {
  it('an empty manifest, a non-object item, bad --feedback-json, a bad --callback-url, a start after the deadline', async () => {
    const dir = tempDir('kct-refusals-');
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const before = await creditsOf(shared.kct);
    const cases: [string[], string, string][] = [
      [['batch', write('empty.jsonl', ''), '--model', '12'], 'has no items', 'hint: Give a .jsonl or .json file of items'],
      [
        ['batch', write('numbers.json', '[1, 2]'), '--model', '12'],
        'numbers.json item 1 is not a JSON object',
        'hint: A JSONL manifest holds one JSON object per line',
      ],
      [
        ['batch', write('trailing.json', '[\n  {"paper_content": "An answer."},\n]\n'), '--model', '12'],
        'trailing.json is not JSON: ',
        'a .json file may hold an array of them',
      ],
      [
        ['batch', write('m.jsonl', '"just text"\n'), '--model', '12'],
        'm.jsonl line 1 is not a JSON object',
        '{"file": "ana.txt", "student_id": "s-1"}',
      ],
      [
        ['evaluate', '-a', '1001', '--text', essay, '--feedback-json', write('fb.json', '{bad')],
        'fb.json is not JSON',
        'hint: It must be a JSON array like',
      ],
      [
        ['evaluate', '-a', '1001', '--text', essay, '--feedback-json', join(dir, 'none.json')],
        'cannot read --feedback-json',
        'hint: Give the path of a JSON file',
      ],
      [
        ['batch', write('one.jsonl', '{"paper_content": "An answer of some words."}\n'), '--model', '12', '--callback-url', 'hooks'],
        '--callback-url is not a URL: hooks',
        'hint: Give a public https URL',
      ],
      [
        ['assign', '--model', '12', '--name', 'n', '--desc', 'd', '--deadline', '2026-12-01', '--start', '2026-12-05', '--expected', '3'],
        'must be before --deadline',
        'hint: Give a --start before the deadline',
      ],
    ];
    for (const [args, message, hint] of cases) {
      const run = await shared.kct(args);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain(hint);
    }
    expect(await creditsOf(shared.kct)).toBe(before);
  });

  it('a .json manifest may hold an array of items, or one item, pretty-printed', async () => {
    const dir = tempDir('kct-json-manifest-');
    const items = [
      { paper_content: `${essay} (array item 1)`, student_id: 'a-1' },
      { paper_content: `${essay} (array item 2)`, student_id: 'a-2' },
    ];
    writeFileSync(join(dir, 'class.json'), JSON.stringify(items, null, 2));
    const run = await shared.kct(['batch', join(dir, 'class.json'), '--model', '12', '--output', 'csv']);
    expect(run.code, run.stderr).toBe(0);
    const rows = parse(run.stdout, { columns: true }) as { student_id: string; status: string }[];
    expect(rows.map((row) => [row.student_id, row.status])).toEqual([
      ['a-1', 'SUCCESS'],
      ['a-2', 'SUCCESS'],
    ]);
    writeFileSync(join(dir, 'one.json'), JSON.stringify(items[0], null, 2));
    // one item of the array again: a request of its own, paid for again only when asked
    const one = await shared.kct(['batch', join(dir, 'one.json'), '--model', '12', '--output', 'csv', '--mark-again']);
    expect(one.code, one.stderr).toBe(0);
    expect((parse(one.stdout, { columns: true }) as { student_id: string }[]).map((row) => row.student_id)).toEqual(['a-1']);
  });
});

describe('settings', () => {
  it('a hand-edited config with a number where a string belongs is reported by path and key (exit 2)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { base_url: 5, api_key: 7 } } }));
    const run = await runKct(['credits'], { env: kctEnv(dir) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the config file ${join(dir, 'config.json')} has profiles.default.base_url set to 5, not a string`);
    expect(run.stderr).not.toContain('looks like a bug');
  });

  it('config get api_key says the key is never printed and where to look instead', async () => {
    const run = await shared.kct(['config', 'get', 'api_key']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the API key is never printed');
    expect(run.stderr).toContain('kct auth status');
  });
});

describe('kct sandbox start-up', () => {
  it('an address that cannot be, or one this machine does not have, is a usage error (exit 2), never "a bug in kct"', async () => {
    for (const [host, said] of [
      ['999.1.1.1', 'no address of that name'],
      ['10.99.99.99', 'no such address on this machine'],
    ]) {
      const data = join(tempDir(), 'new');
      const run = await runKct(['sandbox', '--host', host, '--port', '0', '--data', data], { env: kctEnv(tempDir()) });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`error: cannot listen on ${host}: ${said}`);
      expect(run.stderr).toContain('hint: Use --host 127.0.0.1');
      expect(run.stderr).not.toContain('bug');
      expect(existsSync(data)).toBe(false);
    }
  });

  it('a port already in use is a usage error naming the port (exit 2)', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const run = await runKct(['sandbox', '--port', String(port), '--data', tempDir()], { env: kctEnv(tempDir()) });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(run.stderr).toContain('--port 0');
      // a data folder it made for this start is not left behind, seeded with keys it never showed
      const fresh = join(tempDir(), 'new', 'data');
      expect((await runKct(['sandbox', '--port', String(port), '--data', fresh], { env: kctEnv(tempDir()) })).code).toBe(2);
      expect(existsSync(join(fresh, '..'))).toBe(false);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('--data naming a file is a usage error saying so', async () => {
    const file = join(tempDir(), 'not-a-folder.txt');
    writeFileSync(file, 'x');
    const run = await runKct(['sandbox', '--port', '0', '--data', file], { env: kctEnv(tempDir()) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--data ${file} is a file, not a folder`);
  });

  it('--data inside a file is a usage error naming the folder', async () => {
    const file = join(tempDir(), 'plain.txt');
    writeFileSync(file, 'x');
    const run = await runKct(['sandbox', '--port', '0', '--data', join(file, 'sub')], { env: kctEnv(tempDir()) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`cannot use ${join(file, 'sub')} as the sandbox data folder`);
  });
});
