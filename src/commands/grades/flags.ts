// The flags both `kct grades moodle` and `kct grades canvas` take, declared once (loaded with the
// declarations, so they import nothing heavy).
import { UsageError } from '../../api/errors.js';
import type { OptionSpecs } from '../../cli/core/define-command.js';
import { output } from '../../cli/core/options.js';
import { checked, parsePositiveNumber } from '../../cli/core/parse.js';
import { ROUNDINGS } from '../../platforms/grade-scale.js';

/** A file kct writes: a path, never stdout. */
const outputFileFlag = (flag: string) =>
  checked(
    (value) => {
      if (value.trim() === '' || value === '-') throw new UsageError(`${flag} needs a file name, e.g. ${flag} grades-filled.csv`);
      return value;
    },
    flag,
    { parsesEmpty: true },
  );

export const gradeFileOptions = {
  '--download <zip-or-folder>':
    'the download that was marked (its zip, or the folder it unzips to): its students are the class, so one with no row in the saved run is listed too',
  '--rounding <how>': {
    description: "how grades scaled to the file's maximum are rounded (default two-decimals)",
    choices: ROUNDINGS,
  },
  '--max-grade <n>': {
    description:
      "the assignment's maximum grade or points possible, when the file gives none (Canvas: also to override it; Moodle refuses one other than the worksheet's)",
    check: checked(parsePositiveNumber, '--max-grade'),
  },
  '--grades-out <file>': {
    description: 'the filled copy to write (default: <name>.kct.csv beside the file; kct never replaces a file)',
    check: outputFileFlag('--grades-out'),
  },
  '--in-place': 'replace the downloaded file with the filled copy, instead of writing a new file',
  ...output(),
} as const satisfies OptionSpecs;

export const SAVED_RUN =
  'the marks, as `kct one-pass <download> --output ndjson` saved them (or - for stdin): every row names its student (student_id)';
