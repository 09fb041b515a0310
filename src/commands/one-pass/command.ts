import { defineCommand } from '../../cli/core/define-command.js';
import { markCopies, maxRps, output, watchOptions } from '../../cli/core/options.js';
import { checked, parsePositiveInteger, parsePositiveNumber } from '../../cli/core/parse.js';

export const command = defineCommand({
  name: 'one-pass',
  summary: 'mark answers: each file (or folder of files) becomes a task, watched until marked',
  args: {
    '[answers...]':
      'answer files (PDF, DOCX, RTF, TXT, PNG/JPEG/WebP/GIF), folders of them, - for text on stdin, or a Moodle or Canvas download (its zip)',
  },
  options: {
    '-m, --model <id>': 'marking model id from `kct models` (default: config `model`, env KCT_MODEL)',
    '--text <answer>': 'the answer as text instead of a file',
    '--files-from <list>': 'read answer paths from a file, one per line as written, or ending in NUL (find -print0); - for stdin',
    '--student-id-from <source>': {
      description:
        'student_id of each answer: its file name without extension, its student folder (the first folder level, entered; deeper with --recursive), or none',
      choices: ['name', 'folder', 'none'],
      defaultValue: 'name',
    },
    '-r, --recursive': 'also mark the answers in subfolders of a folder',
    '--exclude <glob>': {
      description: 'leave out paths matching this glob, relative to the folder (repeatable): "drafts/**", "*.docx"',
      repeatable: true,
      whenEmpty: 'Give a pattern, e.g. --exclude "drafts/**" or --exclude "*.docx".',
    },
    '--group-by <unit>': {
      description:
        'folder: the files of each student folder are the pages of one answer (implies --recursive); student: read a folder as a Moodle or Canvas download (each student one answer of their files and online text), for a download kct does not recognise by its names (a zip, or a folder named as it came, is always read so)',
      choices: ['folder', 'student'],
    },
    '--skip-unsupported': 'mark the answers that can be sent; list files that cannot (type, empty, size) as SKIPPED instead of stopping',
    '--pages': 'the files are the pages of ONE answer: one request, up to 10 files',
    '-j, --jobs <n>': { description: 'submissions in flight at once', defaultValue: '4', check: checked(parsePositiveInteger, '--jobs') },
    '--resume <journal>':
      "record each answer's task and row in this file; a re-run sends nothing for finished answers and follows running ones",
    '--via <route>': {
      description:
        'how plain-text answers are sent: one request each (one-pass), 100 to a request (batch), or batch from 500 of them (auto)',
      choices: ['auto', 'one-pass', 'batch'],
      defaultValue: 'auto',
    },
    ...maxRps(),
    '--rubric-file <path...>': "rubric file(s) instead of the model's saved rubric (a warning when the service finds no criteria in them)",
    '--rubric-text <text>': 'rubric as text',
    '--question-file <path...>': 'question file(s)',
    '--question-text <text>': 'question as text',
    '--name <name>': 'assignment name (assignment_name)',
    '--desc <text>': 'assignment description (assignment_desc)',
    '--cum-method <method>': { description: 'how criterion scores add up', choices: ['sum', 'average'] },
    '--total-score <n>': {
      description: 'hint of the rubric total (with --rubric-file or --rubric-text, a warning when the criteria add up to another total)',
      check: checked(parsePositiveNumber, '--total-score'),
    },
    '--spec <text>': 'parsing instruction (specification), e.g. "question 2 only"',
    '--style <style>': { description: 'feedback style', choices: ['Bullet', 'Short', 'Long'] },
    '--student-id <id>': 'your anonymous student id, passed through',
    '--idempotency-key <key>':
      'your base key: each answer is sent as <key>-<its path relative to its folder, or its --student-id> (default: derived from model, fields and file contents)',
    '--no-wait': 'print the accepted task and exit without waiting',
    '--mark-again':
      'send answers this machine marked before (the same content, model and options, whatever their names), paying again; the --resume journal still resumes',
    ...markCopies('mark identical answers of this run each on their own'),
    '--report <file>': {
      description: 'also write a class report, one self-contained HTML file (see `kct report`)',
      whenEmpty: 'Give a file name (stdout holds the results), e.g. --report class.html.',
    },
    ...watchOptions,
    ...output(),
  },
  examples: [
    'kct one-pass essay.pdf --model 12',
    'kct one-pass - --model 12 < answer.txt',
    'kct one-pass essay.docx --model 12 --style Long --json',
    'kct one-pass essay.txt --model 12 --rubric-file rubric.pdf --question-text "Should schools require uniforms?"',
    'kct one-pass essay.pdf --model 12 --no-wait   # then: kct status <task_id> --watch',
    'kct one-pass page1.png page2.png page3.png --pages --model 12   # one answer in three pages',
    'kct one-pass answers/ --model 12 --output csv > marks.csv',
    'find answers -name "*.pdf" | kct one-pass --files-from - --model 12 --output ndjson',
    'kct one-pass answers/ --model 12 --jobs 8 --resume marks.journal   # safe to re-run after a crash',
    'kct one-pass class/ --recursive --student-id-from folder --group-by folder --model 12 --output csv   # a folder per student',
    'kct one-pass submissions.zip --model 12 --output ndjson > marks.ndjson   # then: kct grades moodle marks.ndjson Grades.csv',
    'kct one-pass answers/ --model 12 --mark-again   # pay again for answers marked before',
    'kct one-pass answers/ --model 12 --mark-copies  # identical answers each marked on its own',
    'kct one-pass answers/ --model 12 --exclude "drafts/**" --skip-unsupported',
    'kct one-pass answers/ --model 12 --idempotency-key class9   # keys class9-a1.txt, class9-a2.txt, ...',
    'kct one-pass answers/ --model 12 --report class.html              # and a class report to open in a browser',
    'kct one-pass district/ --recursive --model 12 --resume district.journal --timeout 12h --output ndjson > marks.ndjson',
  ],
  load: () => import('./run.js'),
});
