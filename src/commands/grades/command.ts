import { defineGroup } from '../../cli/core/define-command.js';
import { command as gradesCanvas } from './canvas/command.js';
import { command as gradesMoodle } from './moodle/command.js';

export const command = defineGroup({
  name: 'grades',
  summary: "fill Moodle's grading worksheet or Canvas's gradebook export from a saved run, to review before you upload it",
  examples: [
    'kct one-pass submissions.zip --model 12 --output ndjson > marks.ndjson',
    'kct grades moodle marks.ndjson Grades.csv            # writes Grades.kct.csv for "Upload grading worksheet"',
    'kct grades canvas marks.ndjson export.csv --assignment "Essay 1"',
  ],
  subcommands: [gradesMoodle, gradesCanvas],
});
