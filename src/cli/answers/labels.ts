// How an answer with no file of its own is named in every view of a run (its row's `file`, the table,
// the class report, the --resume journal): decided here, and read back here from runs saved before.
// It imports nothing, so reading a saved run (kct report) loads no more than this.

/**
 * A pasted answer's label (`--text "..."`): no path, and nothing a spreadsheet would run, so CSV's
 * formula guard (render/rows.ts) leaves it whole where `--text` became `'--text`.
 */
export const TEXT_LABEL = '(text)';

/** What kct named a pasted answer before TEXT_LABEL: journals and saved runs may hold it. */
const OLD_TEXT_LABEL = '--text';

/** A label as a run saved it, named as this kct names it (a pasted answer saved as `--text` is TEXT_LABEL). */
export function currentLabel(label: string): string;
export function currentLabel(label: string | null | undefined): string | null | undefined;
export function currentLabel(label: string | null | undefined): string | null | undefined {
  return label === OLD_TEXT_LABEL ? TEXT_LABEL : label;
}
