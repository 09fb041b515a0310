// Rubric text (rubric_text, or the text of a rubric file) → criteria. Understands the shapes
// teachers write: "Thesis (5 marks)", "Evidence - 6", "Organisation: 5 points", "Style /4",
// "| Organisation | 5 |" tables, and level lines "5: ..." / "3-4: ..." / "Level 2 (3-4 marks): ...".
// The total the text states ("Total: 20 marks", "marked out of 20", "/20" as its last line) is
// read in the same pass, so the lines that say it are never taken for criteria.

export interface ParsedRubric {
  item: string;
  max_score: number;
  description?: string;
  levels?: { score: number; descriptor: string }[];
}

interface Draft {
  item: string;
  max?: number;
  description: string[];
  levels: { score: number; descriptor: string }[];
}

const NUM = String.raw`(\d+(?:\.\d+)?)`;
const UNIT = String.raw`(?:marks?|points?|pts?\.?)`;
const SEP = String.raw`[:\-–—]`;

const BULLET = /^(?:[-*•·]|\d{1,2}[.)]|[a-z][.)]|#{1,6}|[ivx]{1,4}[.)])\s+/i;
/** "Thesis (5 marks): desc", "Thesis [max 5]", "Thesis (out of 5) - desc" */
const PAREN = new RegExp(
  String.raw`^(.+?)\s*[(\[]\s*(?:max(?:imum)?\.?\s*|out of\s*|/\s*)?${NUM}\s*${UNIT}?\s*(?:max(?:imum)?)?\s*[)\]]\s*(?:${SEP}\s*(.*))?$`,
  'i',
);
/** "Evidence - 6", "Thesis: 5 marks", "Style — 4 points: desc" */
const DASHED = new RegExp(String.raw`^(.+?)\s*${SEP}\s*${NUM}\s*${UNIT}?\s*(?:${SEP}\s*(.*))?$`, 'i');
/** "Style /4", "Style: /4", "Style out of 4" */
const SLASHED = new RegExp(String.raw`^(.+?)\s*${SEP}?\s*(?:/|out of)\s*${NUM}\s*${UNIT}?\s*(?:${SEP}\s*(.*))?$`, 'i');
/** "Thesis 5 marks" */
const TRAILING = new RegExp(String.raw`^(.+?)\s+${NUM}\s*${UNIT}\s*(?:${SEP}\s*(.*))?$`, 'i');
/** "5: desc", "3-4: desc", "3–4 marks: desc", "(5) desc", "5 points - desc" */
const LEVEL = new RegExp(String.raw`^\(?${NUM}(?:\s*[-–—]\s*${NUM})?\s*${UNIT}?\)?\s*(?::|\)|[-–—]\s)\s*(.+)$`, 'i');
/** "Level 3 (5-6 marks): desc", "Band 2: desc" (its number is the band's, the range the score). */
const BAND = new RegExp(
  String.raw`^(?:level|band|grade)\s*\d+\s*(?:[(\[]\s*${NUM}(?:\s*[-–—]\s*${NUM})?\s*${UNIT}?\s*[)\]])?\s*[:.\-–—]?\s*(.+)$`,
  'i',
);
/** "Excellent (5): ..." is a level, not a criterion called Excellent. */
const LEVEL_NAME =
  /^(?:excellent|outstanding|exemplary|very good|good|strong|secure|proficient|competent|satisfactory|adequate|fair|sound|developing|emerging|basic|beginning|limited|weak|poor|inadequate|needs improvement|not yet|novice|advanced|expert|accomplished)$/i;
const MAX_LINE = new RegExp(
  String.raw`^(?:max(?:imum)?(?:\s*(?:score|marks?|points?))?|out of|total marks?|weight(?:ing)?|marks?|points?)\s*[:=]?\s*${NUM}\s*${UNIT}?$`,
  'i',
);
const TOTAL_LINE = /^(?:grand\s+|overall\s+)?total(?:\s+(?:marks?|points?|score))?\b.*\d/i;
/** "Total: 20", "Total marks: 20", "Total (20 marks)", "Total: ___ /20", "Total: 30 marks. Marks are added." */
const TOTAL_STATED = new RegExp(
  String.raw`^(?:(grand|overall)\s+)?total(?:\s+(?:marks?|points?|score))?(?:\s+(?:available|possible))?\s*(?:[:=\-–—]\s*|\s)(?:[(\[]\s*)?(?:_*\s*(?:/|out of)\s*)?${NUM}\s*${UNIT}?\s*[)\]]?(?:\s*[.;,(].*)?$`,
  'i',
);
/** Said of the whole, before the first criterion or as the last line: "marked out of 20", "20 marks in total", "Essay rubric (out of 20)". */
const WHOLE_STATED = [
  new RegExp(String.raw`\b(?:marked|scored|graded|assessed)\s+out\s+of\s+${NUM}\b`, 'i'),
  new RegExp(String.raw`\b${NUM}\s*${UNIT}\s+(?:in\s+)?total\b`, 'i'),
  new RegExp(String.raw`\b(?:a|the)\s+total\s+of\s+${NUM}\b`, 'i'),
  new RegExp(String.raw`^out\s+of\s+${NUM}\s*${UNIT}?\.?$`, 'i'),
  new RegExp(
    String.raw`\b(?:rubric|marking scheme|mark scheme)\b.*?(?:[(\[]\s*(?:out of\s*|/\s*)?${NUM}\s*${UNIT}?\s*[)\]]|(?:out of|/)\s*${NUM}\s*${UNIT}?)\.?$`,
    'i',
  ),
];
/** The last line only: "/20", "Score: ___ /20", "Mark: /20". */
const LAST_STATED = new RegExp(String.raw`^(?:(?:final\s+)?(?:score|marks?|points?|grade)\s*[:=]?\s*)?_*\s*/\s*${NUM}\s*${UNIT}?\.?$`, 'i');
const TOTAL_CELL = /^(?:grand\s+|overall\s+)?total(?:\s+(?:marks?|points?|score))?$/i;
const NOT_CRITERIA = /^(?:total|overall total|grand total|sum|criteria|criterion|rubric|marking scheme|score|marks?|points?)$/i;

function toNumber(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

function cleanName(s: string): string {
  return s
    .replace(/[*_`]+/g, '')
    .replace(/\s*[:\-–—]\s*$/, '')
    .trim();
}

function plausibleName(s: string): boolean {
  const words = s.split(/\s+/).filter(Boolean);
  return (
    /\p{L}/u.test(s) &&
    words.length <= 10 &&
    s.length <= 80 &&
    !/[.!?]$/.test(s) &&
    !NOT_CRITERIA.test(s) &&
    !/\b(?:rubric|marking scheme|mark scheme|total)\b/i.test(s)
  );
}

function header(line: string): { item: string; max: number; description?: string } | undefined {
  const stripped = line.replace(BULLET, '').replace(/^\*\*(.+?)\*\*/, '$1');
  for (const re of [PAREN, SLASHED, DASHED, TRAILING]) {
    const m = re.exec(stripped);
    if (!m) continue;
    const item = cleanName(m[1]);
    const max = toNumber(m[2]);
    if (max === undefined || max <= 0 || !plausibleName(item)) continue;
    return { item, max, description: m[3]?.trim() || undefined };
  }
  return undefined;
}

function level(line: string): { score: number; descriptor: string } | undefined {
  const stripped = line.replace(/^[-*•·]\s+/, '');
  const band = BAND.exec(stripped);
  if (band) {
    const score = toNumber(band[2]) ?? toNumber(band[1]);
    if (score !== undefined) return { score, descriptor: band[3].trim() };
  }
  const m = LEVEL.exec(stripped);
  if (!m) return undefined;
  const score = Math.max(toNumber(m[1]) ?? 0, toNumber(m[2]) ?? 0);
  return { score, descriptor: m[3].trim() };
}

function levelLine(line: string): { score: number; descriptor: string } | undefined {
  if (/^[-*•·]?\s*\(?\d/.test(line) || /^(?:level|band|grade)\s*\d/i.test(line)) return level(line);
  const named = header(line);
  return named && LEVEL_NAME.test(named.item) ? { score: named.max, descriptor: named.description ?? named.item } : undefined;
}

function cells(line: string): string[] | undefined {
  if (line.includes('|'))
    return line
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((c) => c.trim());
  if (line.includes('\t')) return line.split('\t').map((c) => c.trim());
  return undefined;
}

const NAME_COL = /^(?:criteri(?:on|a)|item|category|aspect|area|skill|component|element|dimension|trait)s?$/i;
const MAX_COL = /^(?:max(?:imum)?(?:\s*(?:score|marks?|points?))?|marks?|points?|score|weight(?:ing)?|out of|total)$/i;
const DESC_COL = /^(?:description|descriptor|details?|what we look for|notes?|guidance)s?$/i;

interface Columns {
  name: number;
  max: number;
  desc: number;
}

function tableRow(row: string[], columns: Columns | undefined): { item: string; max: number; description?: string } | undefined {
  const numeric = (c: string) => toNumber(c.replace(/\s*(?:marks?|points?|pts?)$/i, '').replace(/^\/\s*/, ''));
  if (columns) {
    const item = cleanName(row[columns.name] ?? '');
    const max = numeric(row[columns.max] ?? '');
    if (max === undefined || max <= 0 || !plausibleName(item)) return undefined;
    return { item, max, description: columns.desc >= 0 ? row[columns.desc] || undefined : undefined };
  }
  const text = row.filter((c) => c !== '' && numeric(c) === undefined);
  const nums = row.map(numeric).filter((n): n is number => n !== undefined);
  if (text.length === 0 || nums.length === 0) return undefined;
  const item = cleanName(text[0]);
  const max = nums[nums.length - 1];
  if (max <= 0 || !plausibleName(item)) return undefined;
  return { item, max, description: text.slice(1).join(' ') || undefined };
}

/** Criteria with maxima found in a rubric's text; [] when the text has none. */
export function rubricsFromText(text: string): ParsedRubric[] {
  return readRubricText(text).rubrics;
}

/** What a rubric's text says: its criteria, and the total it states (none when it states none, or several that differ). */
export function readRubricText(text: string): { rubrics: ParsedRubric[]; stated_total?: number } {
  const drafts: Draft[] = [];
  const totals: { value: number; grand: boolean }[] = [];
  let current: Draft | undefined;
  let columns: Columns | undefined;
  const start = (item: string, max: number | undefined, description?: string) => {
    current = { item, max, description: description ? [description] : [], levels: [] };
    drafts.push(current);
  };

  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  let lastWasLevel = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const wasLevel = lastWasLevel;
    lastWasLevel = false;
    const last = i === lines.length - 1;
    // before the first criterion any line is about the whole; the last line, when the criterion above has its maximum
    const whole = current === undefined || (last && current.max !== undefined);
    const stated = statedTotal(line, whole, last);
    if (stated) {
      totals.push(stated);
      continue;
    }
    if (TOTAL_LINE.test(line.replace(BULLET, ''))) continue;

    const row = cells(line);
    if (row && row.length >= 2) {
      if (row.every((c) => /^:?-{2,}:?$/.test(c) || c === '')) continue;
      const totalRow = tableTotal(row);
      if (totalRow) {
        totals.push(totalRow);
        continue;
      }
      const nameCol = row.findIndex((c) => NAME_COL.test(c));
      const maxCol = row.findIndex((c) => MAX_COL.test(c));
      if (nameCol >= 0 && maxCol >= 0) {
        columns = { name: nameCol, max: maxCol, desc: row.findIndex((c) => DESC_COL.test(c)) };
        continue;
      }
      const found = tableRow(row, columns);
      if (found) start(found.item, found.max, found.description);
      // A row that is no criterion (a total, an empty row) is not description either.
      continue;
    }

    const asLevel = levelLine(line);
    const asHeader = header(line);
    if (asHeader && current && LEVEL_NAME.test(asHeader.item)) {
      current.levels.push({ score: asHeader.max, descriptor: asHeader.description ?? asHeader.item });
      lastWasLevel = true;
      continue;
    }
    // "1) Thesis (5 marks)" is a numbered criterion; "3-4: some evidence" a level of the current one.
    if (asLevel && current && !(asHeader && /^\d{1,2}[.)]\s/.test(line))) {
      current.levels.push(asLevel);
      lastWasLevel = true;
      continue;
    }
    if (asHeader) {
      start(asHeader.item, asHeader.max, asHeader.description);
      continue;
    }
    const maxLine = MAX_LINE.exec(line);
    if (maxLine && current) {
      current.max = toNumber(maxLine[1]);
      continue;
    }
    // A line wrapped by a PDF: it continues the level above when that one's sentence is unfinished
    // or the line starts in lower case; a lower-case line is never a heading.
    const strongHeading = line.endsWith(':') || /^#{1,6}\s/.test(line) || /^\*\*.+\*\*:?$/.test(line);
    if (current && !strongHeading) {
      const lastLevel = current.levels[current.levels.length - 1];
      if (wasLevel && lastLevel && (/^\p{Ll}/u.test(line) || !/[.!?]["”’)]?$/.test(lastLevel.descriptor))) {
        lastLevel.descriptor = `${lastLevel.descriptor} ${line}`;
        lastWasLevel = true;
        continue;
      }
      if (/^\p{Ll}/u.test(line)) {
        current.description.push(line);
        continue;
      }
    }
    // A short heading without a maximum ("Organisation:", "## Evidence") may get one from its levels.
    const heading = cleanName(line.replace(BULLET, ''));
    const headingLike =
      line.endsWith(':') ||
      /^#{1,6}\s/.test(line) ||
      /^\*\*.+\*\*:?$/.test(line) ||
      (i + 1 < lines.length && levelLine(lines[i + 1]) !== undefined && !/[.!?,;]$/.test(line));
    if (headingLike && heading.split(/\s+/).length <= 6 && plausibleName(heading)) {
      start(heading, undefined);
      continue;
    }
    if (current) current.description.push(line);
  }

  const rubrics = drafts.flatMap((d) => {
    const max = d.max ?? (d.levels.length > 0 ? Math.max(...d.levels.map((l) => l.score)) : undefined);
    if (max === undefined || max <= 0) return [];
    const out: ParsedRubric = { item: d.item, max_score: max };
    const description = d.description.join(' ').trim();
    if (description) out.description = description;
    if (d.levels.length > 0) out.levels = [...d.levels].sort((a, b) => b.score - a.score);
    return [out];
  });
  const total = oneTotal(totals);
  return total === undefined ? { rubrics } : { rubrics, stated_total: total };
}

/** The total a line states; `whole`: the line is about no criterion (before the first, or the last line after a whole one). */
function statedTotal(line: string, whole: boolean, last: boolean): { value: number; grand: boolean } | undefined {
  const plain = line.replace(BULLET, '').replace(/[*`]+/g, '').trim();
  const total = TOTAL_STATED.exec(plain);
  if (total) return positive(total[2], total[1] !== undefined);
  if (!whole) return undefined;
  const slash = last ? LAST_STATED.exec(plain) : null;
  if (slash) return positive(slash[1], false);
  for (const re of WHOLE_STATED) {
    const value = re
      .exec(plain)
      ?.slice(1)
      .find((group) => group !== undefined);
    if (value !== undefined) return positive(value, false);
  }
  return undefined;
}

/** "| Total | 20 |", "| **Total** | | **20** |": the last number of a row named Total. */
function tableTotal(row: string[]): { value: number; grand: boolean } | undefined {
  const named = row.map((c) => c.replace(/[*_`]+/g, '').trim()).filter((c) => c !== '');
  if (named.length < 2 || !TOTAL_CELL.test(named[0])) return undefined;
  const numbers = named.slice(1).map((c) => toNumber(c.replace(/\s*(?:marks?|points?|pts?)$/i, '').replace(/^\/\s*/, '')));
  const last = numbers.filter((n): n is number => n !== undefined).pop();
  return last === undefined ? undefined : positive(String(last), /^(?:grand|overall)/i.test(named[0]));
}

function positive(raw: string | undefined, grand: boolean): { value: number; grand: boolean } | undefined {
  const value = toNumber(raw);
  return value !== undefined && value > 0 ? { value, grand } : undefined;
}

/** A grand total wins; else one value said once or more; totals that differ (one per section) state none. */
function oneTotal(totals: { value: number; grand: boolean }[]): number | undefined {
  const grand = totals.filter((t) => t.grand);
  const candidates = new Set((grand.length > 0 ? grand : totals).map((t) => t.value));
  return candidates.size === 1 ? [...candidates][0] : undefined;
}
