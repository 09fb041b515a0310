// The checks of one-pass's grade-file flags, run where the flags are declared (command.ts): small,
// and loaded with the declaration, so they import nothing heavy.
import { UsageError } from '../../api/errors.js';
import { checked } from '../../cli/core/parse.js';

/** A grade file to fill: a path, and not a spreadsheet's own format (the platforms import CSV only). */
export const gradeFileFlag = (flag: string, platform: string) =>
  checked((value) => {
    if (value.trim() === '') throw new UsageError(`${flag} needs the file ${platform} downloaded, e.g. ${flag} grades.csv`);
    if (/\.(xlsx|xls|ods|numbers)$/i.test(value)) {
      throw new UsageError(`${flag} takes the CSV file ${platform} downloaded, not a spreadsheet (${value})`, {
        suggestion: `Download it again from ${platform} as CSV and give kct that file untouched (a spreadsheet that opens and saves it can change its encoding, quoting and dates).`,
      });
    }
    return value;
  }, flag);

/** A file kct writes: a path. */
export const outputFileFlag = (flag: string) =>
  checked((value) => {
    if (value.trim() === '' || value === '-') throw new UsageError(`${flag} needs a file name, e.g. ${flag} grades-filled.csv`);
    return value;
  }, flag);
