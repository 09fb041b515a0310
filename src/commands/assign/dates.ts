// Friendly dates for flags: "2026-12-01" or "2026-12-01T17:00" become full ISO 8601 date-times.
import { UsageError } from '../../api/errors.js';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const NO_SECONDS = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})$/;
const FULL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A date alone means the end of that day for a deadline and its start otherwise, in local
 * time; a date-time without a zone is local time. The result is UTC ("...Z").
 */
export function toIsoDateTime(text: string, what: string, endOfDay = false): string {
  const value = text.trim();
  let date: Date;
  let match: RegExpExecArray | null;
  if ((match = DATE_ONLY.exec(value))) {
    const [, y, m, d] = match.map(Number);
    date = endOfDay ? new Date(y, m - 1, d, 23, 59, 59) : new Date(y, m - 1, d, 0, 0, 0);
    if (date.getMonth() !== m - 1 || date.getDate() !== d) throw invalid(text, what);
  } else if ((match = NO_SECONDS.exec(value))) {
    const [, y, mo, d, h, mi] = match.map(Number);
    date = new Date(y, mo - 1, d, h, mi, 0);
    if (date.getMonth() !== mo - 1 || date.getDate() !== d || h > 23 || mi > 59) throw invalid(text, what);
  } else if (FULL.test(value)) {
    date = new Date(value);
  } else {
    throw invalid(text, what);
  }
  if (Number.isNaN(date.getTime())) throw invalid(text, what);
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

function invalid(text: string, what: string): UsageError {
  return new UsageError(`${what}: "${text}" is not a date`, {
    suggestion: 'Use 2026-12-01, 2026-12-01T17:00, or a full ISO 8601 date-time such as 2026-12-01T17:00:00Z.',
  });
}

/**
 * An ISO date-time as the user reads it: local time with its zone, then UTC, e.g.
 * "Tue 1 Dec 2026, 23:59 Europe/London (2026-12-01T23:59:59Z)". The zone is the process's
 * (TZ, else the system's).
 */
export function localAndUtc(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const local = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: zone,
  }).format(date);
  return `${local} ${zone} (${date.toISOString().replace(/\.000Z$/, 'Z')})`;
}
