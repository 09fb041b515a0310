// The class report in a real browser (Debian's chromium, driven by playwright-core): made in-process by
// `kct one-pass --report` and by `kct report` from the saved ndjson, it loads with no console
// error and no network request, sorts on a click, draws one bar per score band, shows each
// student's feedback a click away and lists failures with their reason. Untrusted names stay text.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditsOf, FIXTURES, removeDir, tempDir, useSandbox } from './harness.js';

const CHROMIUM = process.env.KCT_CHROMIUM ?? '/usr/bin/chromium';
/** Without a browser the browser tests are not run (said on one line); CI sets KCT_REQUIRE_BROWSER=1, and then a missing browser fails. */
const HAS_BROWSER = existsSync(CHROMIUM);
if (!HAS_BROWSER) {
  if (process.env.KCT_REQUIRE_BROWSER === '1')
    throw new Error(
      `no browser at ${CHROMIUM}, and KCT_REQUIRE_BROWSER=1: install Debian's chromium (apt-get install -y chromium), or set KCT_CHROMIUM`,
    );
  console.log(
    `kct: the class report's browser tests were not run: no browser at ${CHROMIUM} (apt-get install -y chromium, or set KCT_CHROMIUM=<path>; .ci/run installs it and requires them)`,
  );
}
const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
// A file name is a student id by default: this one tries to run script in the report.
const HOSTILE = `<img src=x onerror="window.pwned=1"> Zoë & "co"`;

const shared = useSandbox();
let browser: Browser;
let classDir: string;
let out: string;

/** Ten answers of different lengths (so different totals), one that fails, one with a hostile name. */
function makeClass(): string {
  const dir = tempDir('kct-report-class-');
  const sentences = essay.split(/(?<=\.)\s+/);
  for (let i = 1; i <= 10; i++)
    writeFileSync(join(dir, `student-${String(i).padStart(2, '0')}.txt`), sentences.slice(0, 1 + i * 2).join(' '));
  writeFileSync(join(dir, 'ben.txt'), `${essay}\nKCT-SANDBOX-FAIL`);
  writeFileSync(join(dir, `${HOSTILE}.txt`), essay);
  return dir;
}

beforeAll(async () => {
  classDir = makeClass();
  out = tempDir('kct-report-out-');
  if (!HAS_BROWSER) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  for (const dir of [classDir, out]) if (dir) removeDir(dir);
});

interface Loaded {
  page: Page;
  consoleErrors: string[];
  requests: string[];
}

/** Opens a report from disk, recording console errors, page errors and every request. */
async function open(file: string): Promise<Loaded> {
  const page = await browser.newPage();
  const consoleErrors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(`file://${file}`, { waitUntil: 'load' });
  return { page, consoleErrors, requests };
}

const totals = (page: Page) =>
  page.$$eval('#students tbody tr td:nth-child(2)', (cells) => cells.map((cell) => cell.getAttribute('data-v')));
const names = (page: Page) => page.$$eval('#students tbody tr td:nth-child(1)', (cells) => cells.map((cell) => cell.textContent));
const withoutHeader = (html: string) => html.replace(/<header>.*<\/header>/, '');

describe.skipIf(!HAS_BROWSER)('the class report in a browser', () => {
  it('one-pass --report and kct report (file and stdin) make the same page: no console error, no request, sortable, one bar per band', async () => {
    const report = join(out, 'class.html');
    const run = await shared.kct(['one-pass', classDir, '--model', '12', '--jobs', '6', '--output', 'ndjson', '--report', report], {
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(3); // ben.txt ends FAILURE
    expect(run.stderr).toContain(`kct: wrote the class report ${report}: 12 answers, 11 marked, 1 not marked`);
    expect(run.stdout.trim().split('\n')).toHaveLength(12); // stdout still holds the results
    writeFileSync(join(out, 'marks.ndjson'), run.stdout);

    const fromFile = await shared.kct(['report', join(out, 'marks.ndjson'), '-o', join(out, 'from-file.html'), '--json']);
    expect(fromFile.code).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toEqual({ file: join(out, 'from-file.html'), answers: 12, marked: 11, not_marked: 1, not_sent: 0 });
    const fromStdin = await shared.kct(['report', '-'], { input: run.stdout });
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stdout.startsWith('<!doctype html>')).toBe(true);
    // rows come in the order answers finished, so compare the sorted lines of the pages
    const lines = (html: string) => withoutHeader(html).split('\n').sort();
    expect(lines(readFileSync(join(out, 'from-file.html'), 'utf8'))).toEqual(lines(readFileSync(report, 'utf8')));
    expect(lines(fromStdin.stdout)).toEqual(lines(readFileSync(report, 'utf8')));
    expect(readdirSync(out).filter((name) => name.includes('partial'))).toEqual([]);

    const { page, consoleErrors, requests } = await open(report);
    try {
      expect(consoleErrors).toEqual([]);
      expect(requests).toEqual([`file://${report}`]);

      // one bar per score band (out of 20: ten bands of 2), and the bars count every marked answer
      const bars = await page.$$eval('#distribution rect.bar', (rects) =>
        rects.map((rect) => rect.querySelector('title')?.textContent ?? ''),
      );
      const bands = await page.$$eval('#distribution text.band', (labels) => labels.map((label) => label.textContent));
      expect(bands).toEqual(['0–2', '2–4', '4–6', '6–8', '8–10', '10–12', '12–14', '14–16', '16–18', '18–20']);
      expect(bars).toHaveLength(bands.length);
      expect(bars.reduce((sum, title) => sum + Number(/: (\d+) answer/.exec(title)?.[1]), 0)).toBe(11);

      // each criterion's mean against its maximum, exactly one marked weakest
      expect(await page.locator('#criteria g.criterion').count()).toBe(4);
      expect(await page.locator('#criteria g.criterion.weakest').count()).toBe(1);

      // the table starts sorted by student; Total sorts up, then down; unmarked answers last in every sort
      const start = await names(page);
      const startTotals = await totals(page);
      const markedNames = start.filter((_, i) => startTotals[i] !== '');
      expect(markedNames).toEqual(
        [...markedNames].sort((a, b) => (a ?? '').localeCompare(b ?? '', undefined, { numeric: true, sensitivity: 'base' })),
      );
      expect(startTotals.at(-1)).toBe('');
      await page.click('#students th:nth-child(1) button');
      expect((await totals(page)).at(-1)).toBe('');
      await page.click('#students th:nth-child(2) button');
      const up = await totals(page);
      const marked = up.filter((value) => value !== '').map(Number);
      expect(marked).toHaveLength(11);
      expect(marked).toEqual([...marked].sort((a, b) => a - b));
      expect(up[up.length - 1]).toBe('');
      expect(await page.getAttribute('#students th:nth-child(2)', 'aria-sort')).toBe('ascending');
      await page.click('#students th:nth-child(2) button');
      const down = (await totals(page)).filter((value) => value !== '').map(Number);
      expect(down).toEqual([...marked].sort((a, b) => b - a));
      expect((await totals(page)).at(-1)).toBe('');
      expect(await page.getAttribute('#students th:nth-child(2)', 'aria-sort')).toBe('descending');

      // feedback a click away
      const row = page.locator('#students tbody tr', { hasText: 'student-03' });
      const details = row.locator('details');
      expect(await details.getAttribute('open')).toBeNull();
      await row.locator('summary').click();
      expect(await details.getAttribute('open')).not.toBeNull();
      await expect(row.locator('.crit h3').first().isVisible()).resolves.toBe(true);
      expect(await row.locator('.crit').count()).toBe(4);
      await page.click('#toggle-feedback');
      expect(await page.locator('#students details:not([open])').count()).toBe(0);

      // failures with their reason
      const failures = await page.$$eval('#failures li', (items) => items.map((item) => item.textContent ?? ''));
      expect(failures).toHaveLength(1);
      expect(failures[0]).toContain('ben');
      expect(failures[0]).toContain('KCT-SANDBOX-FAIL');

      // the hostile student id is text, never markup
      expect(await names(page)).toContain(HOSTILE);
      expect(await page.locator('#students img').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
      expect(consoleErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 180_000);

  it('the page holds its own style and script, allowed by hash, and nothing from elsewhere', () => {
    const html = readFileSync(join(out, 'class.html'), 'utf8');
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+';/,
    );
    expect(html).not.toMatch(/<[^>]*\son[a-z]+=/i); // no inline event handlers in any tag
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });
});

describe('kct report refuses what it cannot read, and leaves nothing behind', () => {
  /** A saved run of one answer (the browser tests save a whole class there when they run). */
  const saved = () => readFileSync(join(out, 'marks.ndjson'), 'utf8');
  beforeAll(() => {
    if (!existsSync(join(out, 'marks.ndjson')))
      writeFileSync(
        join(out, 'marks.ndjson'),
        `${JSON.stringify({ file: 'a.txt', student_id: 'a', task_id: 'tsk_1', status: 'SUCCESS', score: 12, max_score: 20, evaluation: [] })}\n`,
      );
  });

  it("CSV that is not kct's, a page, a bad line, a missing file, a folder: exit 2 naming the problem, no file written", async () => {
    const cases: [string, string, RegExp][] = [
      ['marks.csv', 'file,student_id,task_id,status,score\na.txt,a,t,SUCCESS,1\n', /line 1 is not the header of kct's CSV/],
      ['page.html', '<!doctype html>\n<p>marks</p>\n', /is not a run kct saved/],
      ['broken.ndjson', `${saved().split('\n')[0]}\n{"file": "b.txt"}\n`, /line 2 is not an answer of a run: status/],
      ['half.ndjson', `${saved().split('\n')[0]}\nnot json\n`, /line 2 is not JSON/],
      ['empty.ndjson', '\n\n', /holds no answers/],
    ];
    for (const [name, content, message] of cases) {
      const dir = tempDir('kct-report-bad-');
      writeFileSync(join(dir, name), content);
      const run = await shared.kct(['report', join(dir, name), '-o', join(dir, 'class.html')]);
      expect(run.code, name).toBe(2);
      expect(run.stderr, name).toMatch(message);
      expect(run.stderr, name).toContain('hint: Give a file kct wrote for a run');
      expect(readdirSync(dir), name).toEqual([name]);
    }
    const missing = await shared.kct(['report', join(out, 'nope.ndjson'), '-o', join(out, 'x.html')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
    const folder = await shared.kct(['report', out, '-o', join(out, 'x.html')]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('is a folder');
    const badTarget = await shared.kct(['report', join(out, 'marks.ndjson'), '-o', join(out, 'no-such-folder', 'x.html')]);
    expect(badTarget.code).toBe(2);
    expect(badTarget.stderr).toContain('its folder does not exist');
    expect(existsSync(join(out, 'x.html'))).toBe(false);
    const itself = await shared.kct(['report', join(out, 'marks.ndjson'), '-o', join(out, 'marks.ndjson')]);
    expect(itself.code).toBe(2);
    expect(itself.stderr).toContain('would replace the saved run');
    expect(saved().startsWith('{"file":')).toBe(true); // still the saved run, not a page
  });

  it('one-pass --report that cannot be written, or with --no-wait, stops before anything is sent', async () => {
    const before = await creditsOf(shared.kct);
    const noFolder = await shared.kct(['one-pass', classDir, '--model', '12', '--report', join(out, 'missing', 'class.html')]);
    expect(noFolder.code).toBe(2);
    expect(noFolder.stderr).toContain('cannot write the report');
    const noWait = await shared.kct(['one-pass', classDir, '--model', '12', '--no-wait', '--report', join(out, 'nowait.html')]);
    expect(noWait.code).toBe(2);
    expect(noWait.stderr).toContain('--no-wait');
    // refused before the answers are hashed and planned: nothing is said of them first
    for (const run of [noFolder, noWait]) expect(run.stderr).not.toContain('marked before');
    expect(await creditsOf(shared.kct)).toBe(before);
    expect(existsSync(join(out, 'nowait.html'))).toBe(false);
  });
});

describe('kct report reads every shape kct saves a run in', () => {
  it('the --json array, the --resume journal and --output csv of one class: the same counts as the run', async () => {
    const dir = tempDir('kct-report-shapes-');
    const journal = join(dir, 'class.journal');
    const json = await shared.kct(['one-pass', classDir, '--model', '12', '--jobs', '6', '--json', '--resume', journal], {
      timeoutMs: 120_000,
    });
    expect(json.code).toBe(3); // ben.txt ends FAILURE
    writeFileSync(join(dir, 'marks.json'), json.stdout);
    // the same command again reads the journal: nothing is sent, the rows come back as CSV
    const csv = await shared.kct(['one-pass', classDir, '--model', '12', '--output', 'csv', '--resume', journal], { timeoutMs: 120_000 });
    expect(csv.code).toBe(3);
    writeFileSync(join(dir, 'marks.csv'), csv.stdout);
    for (const saved of ['marks.json', 'class.journal', 'marks.csv']) {
      const made = await shared.kct(['report', join(dir, saved), '--out', join(dir, `${saved}.html`), '--json']);
      expect(made.code, `${saved}: ${made.stderr}`).toBe(0);
      expect(JSON.parse(made.stdout), saved).toEqual({
        file: join(dir, `${saved}.html`),
        answers: 12,
        marked: 11,
        not_marked: 1,
        not_sent: 0,
      });
    }
    removeDir(dir);
  });
});
