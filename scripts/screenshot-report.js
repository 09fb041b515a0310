// The screenshot of a class report in docs/ (docs/class-report.png), taken in Debian's chromium:
//   node scripts/screenshot-report.js class.html docs/class-report.png
// It sorts the table by total (highest first) and opens the top student's feedback.
import { chromium } from 'playwright-core';

const [report, output] = process.argv.slice(2);
if (!report || !output) {
  process.stderr.write('usage: node scripts/screenshot-report.js <report.html> <output.png>\n');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.KCT_CHROMIUM ?? '/usr/bin/chromium',
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
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 }, colorScheme: 'light' });
  await page.goto(new URL(report, `file://${process.cwd()}/`).href);
  await page.click('#students th:nth-child(2) button');
  await page.click('#students th:nth-child(2) button');
  await page.click('#students tbody tr:first-child summary');
  await page.screenshot({ path: output, fullPage: true });
} finally {
  await browser.close();
}
