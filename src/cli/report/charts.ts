// The report's two charts as plain SVG: the distribution of totals (one bar per score band) and
// each criterion's mean against its maximum, the weakest in another colour. Presentation
// attributes and classes only (no style attributes), so the page's strict CSP allows them.
import { type CriterionSummary, type Summary, scalesNote } from '../render/summary.js';
import { escapeHtml, formatScore } from './text.js';

// the width the charts are drawn at; the page scales them to their panel (about this wide)
const WIDTH = 480;

export function distributionChart(summary: Summary): string {
  const bands = summary.histogram;
  if (summary.scales !== undefined) return `<p class="note">Totals ${escapeHtml(scalesNote(summary.scales))}.</p>`;
  if (bands.length === 0) return '<p class="note">No answer was marked, so there is no distribution to draw.</p>';
  const top = 26;
  const bottom = 46;
  const left = 34;
  const right = 8;
  const height = 240;
  const plotWidth = WIDTH - left - right;
  const plotHeight = height - top - bottom;
  const peak = Math.max(1, ...bands.map((band) => band.count));
  const step = Math.max(1, Math.ceil(peak / 4));
  const ceiling = Math.ceil(peak / step) * step;
  const slot = plotWidth / bands.length;
  const y = (count: number) => top + plotHeight - (count / ceiling) * plotHeight;
  const parts: string[] = [];
  for (let tick = 0; tick <= ceiling; tick += step) {
    parts.push(`<line class="axis" x1="${left}" x2="${WIDTH - right}" y1="${num(y(tick))}" y2="${num(y(tick))}"/>`);
    parts.push(`<text x="${left - 6}" y="${num(y(tick) + 4)}" text-anchor="end">${tick}</text>`);
  }
  bands.forEach((band, index) => {
    const x = left + index * slot + slot * 0.14;
    const barHeight = (band.count / ceiling) * plotHeight;
    const label = `${formatScore(band.from)}–${formatScore(band.to)}`;
    parts.push(
      `<rect class="bar" x="${num(x)}" y="${num(y(band.count))}" width="${num(slot * 0.72)}" height="${num(barHeight)}" rx="3"><title>${label}: ${band.count} ${band.count === 1 ? 'answer' : 'answers'}</title></rect>`,
    );
    if (band.count > 0)
      parts.push(`<text class="count" x="${num(x + slot * 0.36)}" y="${num(y(band.count) - 6)}" text-anchor="middle">${band.count}</text>`);
    parts.push(
      `<text class="band" x="${num(left + index * slot + slot / 2)}" y="${height - bottom + 18}" text-anchor="middle">${label}</text>`,
    );
  });
  const upper = bands[bands.length - 1].to;
  if (summary.mean !== undefined && upper > 0) {
    const x = left + (summary.mean / upper) * plotWidth;
    parts.push(`<line class="mean-line" x1="${num(x)}" x2="${num(x)}" y1="${top - 8}" y2="${top + plotHeight}"/>`);
    parts.push(
      `<text class="mean-label" x="${num(x)}" y="${top - 12}" text-anchor="${x > WIDTH - 90 ? 'end' : x < 90 ? 'start' : 'middle'}">mean ${formatScore(summary.mean)}</text>`,
    );
  }
  const outOf = summary.maxScore === undefined ? 'total score' : `total score (out of ${formatScore(summary.maxScore)})`;
  parts.push(`<text x="${left + plotWidth / 2}" y="${height - 8}" text-anchor="middle">${outOf}</text>`);
  return `<svg id="distribution" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="distribution-title"><title id="distribution-title">Number of answers per band of total score</title>${parts.join('')}</svg>`;
}

export function criteriaChart(summary: Summary): string {
  if (summary.criteria.length === 0) return '<p class="note">No criterion scores were given.</p>';
  const rowHeight = 50;
  const height = summary.criteria.length * rowHeight + 6;
  const rows = summary.criteria.map((criterion, index) => criterionRow(criterion, index * rowHeight, criterion.item === summary.weakest));
  return `<svg id="criteria" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="criteria-title"><title id="criteria-title">Mean score of each criterion against its maximum</title>${rows.join('')}</svg>`;
}

function criterionRow(criterion: CriterionSummary, top: number, weakest: boolean): string {
  const name = escapeHtml(criterion.item);
  const value = `${formatScore(criterion.mean)}${criterion.max === undefined ? '' : ` / ${formatScore(criterion.max)}`}${criterion.ratio === undefined ? '' : ` · ${Math.round(criterion.ratio * 100)}%`}`;
  const parts = [
    `<text class="name" x="0" y="${top + 18}">${name}${weakest ? ' <tspan class="tag">· weakest</tspan>' : ''}</text>`,
    `<text x="${WIDTH}" y="${top + 18}" text-anchor="end">${value}</text>`,
  ];
  if (criterion.ratio !== undefined) {
    const fill = Math.max(0, Math.min(1, criterion.ratio)) * WIDTH;
    parts.push(`<rect class="track" x="0" y="${top + 26}" width="${WIDTH}" height="12" rx="6"/>`);
    parts.push(`<rect class="fill" x="0" y="${top + 26}" width="${num(fill)}" height="12" rx="6"><title>${name}: ${value}</title></rect>`);
  }
  return `<g class="criterion${weakest ? ' weakest' : ''}">${parts.join('')}</g>`;
}

function num(value: number): string {
  return String(Math.round(value * 10) / 10);
}
