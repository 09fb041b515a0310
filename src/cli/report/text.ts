// Text in the class report: escaped for HTML, and scores as people write them. Shared by the page
// (html.ts) and its charts (charts.ts).
import { stripControls } from '../core/sanitize.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return stripControls(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

export function formatScore(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}
