// The class report's stylesheet and script, inlined into every report. The page's
// Content-Security-Policy allows exactly these two by hash and nothing else: no network, no
// other script, no inline handlers (html.ts). Charts are SVG drawn by charts.ts.

export const STYLE = `
:root { color-scheme: light dark; --bg: #f6f7fb; --panel: #fff; --ink: #1d2433; --muted: #5b6478; --line: #e3e6ee;
  --accent: #3b5bdb; --accent-soft: #dbe4ff; --weak: #e8590c; --ok: #2b8a3e; --bad: #c92a2a; --warn: #e67700; }
@media (prefers-color-scheme: dark) { :root { --bg: #14171f; --panel: #1d212c; --ink: #e6e9f0; --muted: #9aa3b5; --line: #2e3442;
  --accent: #748ffc; --accent-soft: #2b3358; --weak: #ff922b; --ok: #69db7c; --bad: #ff6b6b; --warn: #ffa94d; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
main { max-width: 1080px; margin: 0 auto; padding: 28px 20px 48px; }
header h1 { margin: 0; font-size: 28px; letter-spacing: -0.01em; }
header p { margin: 4px 0 0; color: var(--muted); }
header p.marked-by { color: var(--warn); font-weight: 600; }
h2 { margin: 0 0 4px; font-size: 17px; }
.note { margin: 0 0 12px; color: var(--muted); font-size: 13px; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px; margin: 22px 0; }
.card, .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 12px; }
.card { padding: 12px 16px; }
.card .k { display: block; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: 0.06em; }
.card .v { display: block; font-size: 26px; font-weight: 650; font-variant-numeric: tabular-nums; }
.card .v small { font-size: 14px; font-weight: 500; color: var(--muted); }
.card .v.text { font-size: 17px; line-height: 1.3; padding-top: 6px; overflow-wrap: anywhere; }
.card.bad .v { color: var(--bad); }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(380px, 1fr)); gap: 16px; }
.panel { padding: 16px 18px; margin-bottom: 16px; }
svg { display: block; width: 100%; height: auto; }
svg text { fill: var(--muted); font: 12px system-ui, sans-serif; }
svg .axis { stroke: var(--line); stroke-width: 1; }
svg .bar { fill: var(--accent); }
svg .count { fill: var(--ink); font-weight: 600; }
svg .mean-line { stroke: var(--ink); stroke-width: 1.5; stroke-dasharray: 4 3; }
svg .mean-label { fill: var(--ink); font-weight: 600; }
svg .track { fill: var(--accent-soft); }
svg .fill { fill: var(--accent); }
svg .weakest .fill { fill: var(--weak); }
svg .name { fill: var(--ink); font-size: 13px; font-weight: 600; }
svg .weakest .name, svg .tag { fill: var(--weak); }
svg .tag { font-weight: 700; }
.failures ul { margin: 8px 0 0; padding: 0; list-style: none; }
.failures li { padding: 8px 0; border-top: 1px solid var(--line); }
.failures li:first-child { border-top: 0; }
.failures .why { display: block; color: var(--muted); white-space: pre-line; }
.toolbar { display: flex; justify-content: space-between; align-items: end; gap: 12px; flex-wrap: wrap; }
.toolbar button { font: inherit; font-size: 13px; color: var(--accent); background: none; border: 1px solid var(--line); border-radius: 8px; padding: 4px 10px; cursor: pointer; }
/* Rows are grid lines that the browser lays out only when on screen (content-visibility), so a
   page of 10,000 students opens and sorts in seconds, not minutes (docs/benchmarks.md). */
table.students, .students thead, .students tbody { display: block; width: 100%; font-variant-numeric: tabular-nums; }
.students tr { display: grid; grid-template-columns: minmax(7em, 2fr) minmax(9.5em, 2fr) 4em 7.5em minmax(10em, 4fr); border-bottom: 1px solid var(--line); }
.students thead tr { border-bottom: 2px solid var(--line); }
.students tbody tr { content-visibility: auto; contain-intrinsic-size: auto 41px; }
.students th { text-align: left; font-size: 12px; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); padding: 0; }
.students th button { all: unset; cursor: pointer; display: block; padding: 8px 10px; }
.students th.plain { padding: 8px 10px; }
.students th button:focus-visible { outline: 2px solid var(--accent); border-radius: 4px; }
.students th[aria-sort="ascending"] button::after { content: " \\25B2"; color: var(--accent); }
.students th[aria-sort="descending"] button::after { content: " \\25BC"; color: var(--accent); }
.students td { padding: 8px 10px; min-width: 0; }
.students tbody tr:hover { background: color-mix(in srgb, var(--accent-soft) 35%, transparent); }
.students .num { white-space: nowrap; }
.students td.who { font-weight: 600; overflow-wrap: anywhere; }
.students .total { display: inline-block; min-width: 5.2em; }
meter { width: 72px; height: 8px; vertical-align: middle; }
meter::-webkit-meter-bar { background: var(--accent-soft); border: 0; border-radius: 4px; height: 8px; }
meter::-webkit-meter-optimum-value, meter::-webkit-meter-suboptimum-value, meter::-webkit-meter-even-less-good-value { background: var(--accent); border-radius: 4px; }
meter::-moz-meter-bar { background: var(--accent); border-radius: 4px; }
.status { display: inline-block; font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 999px; border: 1px solid currentColor; }
.s-success { color: var(--ok); } .s-failure, .s-error, .s-not_sent { color: var(--bad); } .s-cancel, .s-timeout { color: var(--warn); }
details summary { cursor: pointer; color: var(--accent); }
details[open] summary { margin-bottom: 6px; }
.crit { margin: 0 0 10px; }
.crit h3 { margin: 0; font-size: 13px; display: flex; justify-content: space-between; gap: 8px; }
.crit p, .fb .why { margin: 2px 0 0; white-space: pre-line; color: var(--muted); font-size: 13px; }
.who .row-note { display: block; margin-top: 2px; font-size: 12px; color: var(--warn); overflow-wrap: anywhere; }
.file { margin: 0 0 6px; font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
footer { color: var(--muted); font-size: 12px; margin-top: 24px; }
@media print { body { background: #fff; } .toolbar button { display: none; } .panel, .card { break-inside: avoid; } }
`;

// Sorting and "open all": event listeners only, so a strict CSP (no 'unsafe-inline') holds.
// Blank totals (answers not marked) stay last in either direction.
export const SCRIPT = `
(() => {
  const table = document.getElementById('students');
  if (!table) return;
  const body = table.tBodies[0];
  const heads = Array.from(table.tHead.rows[0].cells);
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  const valueOf = (row, index) => {
    const cell = row.cells[index];
    return cell.hasAttribute('data-v') ? cell.getAttribute('data-v') : cell.textContent.trim();
  };
  const sort = (index, direction) => {
    const numeric = heads[index].dataset.type === 'number';
    const sign = direction === 'ascending' ? 1 : -1;
    const rows = Array.from(body.rows).map((row) => ({ row, value: valueOf(row, index) }));
    rows.sort((a, b) => {
      // an answer not marked stays last, whichever column sorts and whichever way
      const unmarked = a.row.hasAttribute('data-unmarked') - b.row.hasAttribute('data-unmarked');
      if (unmarked !== 0) return unmarked;
      if (numeric) {
        const x = a.value === '' ? NaN : Number(a.value);
        const y = b.value === '' ? NaN : Number(b.value);
        if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) - Number.isNaN(y);
        return sign * (x - y);
      }
      return sign * collator.compare(a.value, b.value);
    });
    const fragment = document.createDocumentFragment();
    for (const { row } of rows) fragment.appendChild(row);
    body.appendChild(fragment);
    heads.forEach((head, i) => head.setAttribute('aria-sort', i === index ? direction : 'none'));
  };
  heads.forEach((head, index) => {
    const button = head.querySelector('button');
    if (button) button.addEventListener('click', () => sort(index, head.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending'));
  });
  sort(0, 'ascending');
  const toggle = document.getElementById('toggle-feedback');
  if (toggle) {
    toggle.addEventListener('click', () => {
      const open = toggle.getAttribute('aria-pressed') !== 'true';
      for (const details of body.querySelectorAll('details')) details.open = open;
      toggle.setAttribute('aria-pressed', String(open));
      toggle.textContent = open ? 'Close all feedback' : 'Open all feedback';
    });
  }
})();
`;
