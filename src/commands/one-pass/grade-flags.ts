// The checks of one-pass's grade-file flags, run where the flags are declared (command.ts), until one-pass
// loses them (issue 33, item 6: `kct grades` fills grade files). Remove this file with the flags.
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

export { outputFileFlag } from '../grades/flags.js';
