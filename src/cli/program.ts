// The command tree, declared as data. Each command's module is imported only when that command
// runs, so `kct --help` and `kct --version` load commander and nothing else.
import { Command, Option } from 'commander';
import type { Context, GlobalOptions } from './context.js';
import { PAGED_COMMANDS, startPager } from './pager.js';
import { setExamples } from './command-tree.js';

// Options arrive from commander untyped; each command declares (and checks) its own shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RunFn = (options: any, context: Context) => Promise<void>;
type Loader = () => Promise<{ run: RunFn }>;

interface OptionSpec {
  flags: string;
  description: string;
  defaultValue?: string | boolean;
  choices?: string[];
  hidden?: boolean;
  required?: boolean;
  /** May be given several times; the values arrive as an array (e.g. --asset a --asset b). */
  repeatable?: boolean;
}

interface CommandSpec {
  name: string;
  summary: string;
  /** commander argument syntax, e.g. "<taskId>" or "[files...]" */
  args?: { syntax: string; description: string }[];
  options?: OptionSpec[];
  examples: string[];
  load?: Loader;
  subcommands?: CommandSpec[];
  aliases?: string[];
  /** Left out of --help, man pages and completion (internal helpers). */
  hidden?: boolean;
}

const OUTPUT_CHOICES = ['table', 'json', 'ndjson', 'csv'];
const output = (description = 'output format'): OptionSpec => ({ flags: '-o, --output <format>', description, choices: OUTPUT_CHOICES });
/** The run's request budget (src/client/budget.ts). */
function maxRps(): OptionSpec {
  return { flags: '--max-rps <n>', description: 'at most this many requests a second for the whole run; a 429 or 503 slows it further (default 20, env KCT_MAX_RPS)' };
}

const watchOptions: OptionSpec[] = [
  { flags: '--timeout <duration>', description: 'how long each task is watched once accepted (e.g. 90s, 30m, 12h)', defaultValue: '30m' },
  { flags: '--poll-interval <duration>', description: 'first polling interval, backing off to 15 s (env KCT_POLL_INTERVAL)' },
];

// How `kct keys` signs in to the product (cli/product-session.ts): never a password argument.
const signInOptions: OptionSpec[] = [
  { flags: '--account <name>', description: 'the account to sign in as (env KCT_ACCOUNT, config `account`)' },
  { flags: '--password-stdin', description: 'read the password from standard input (else KCT_PASSWORD, else asked on a terminal)' },
  { flags: '--product-url <url>', description: 'the product base of the key routes (env KCT_PRODUCT_URL, config `product_url`; default: the base URL without /v1)' },
];

// The tools around the API (doctor, api, completion, version); they are listed after its commands.
const TOOL_COMMANDS: CommandSpec[] = [
  {
    name: 'doctor',
    summary: 'check, in order, the configuration, the key, the base URL, the key\'s access and its models (a CI smoke check)',
    options: [
      { flags: '--mark <model>', description: 'also mark a short built-in sample with this model and check it succeeds with a score (charged like any answer)' },
      { flags: '--timeout <duration>', description: 'time limit for --mark to finish', defaultValue: '5m' },
    ],
    examples: ['kct doctor', 'kct doctor --json', 'kct doctor --mark 12', 'KCT_API_KEY=$KEY KCT_BASE_URL=https://api.example/v1 kct doctor --mark 12 --json'],
    load: () => import('../commands/doctor.js'),
  },
  {
    name: 'api',
    summary: 'send an authenticated request to any route of the API and print the answer (like gh api)',
    args: [
      { syntax: '<method>', description: 'GET, POST, PUT, PATCH or DELETE; or the path, for GET (POST when fields are given)' },
      { syntax: '[path]', description: 'route relative to the base URL, e.g. /credits or evaluations/<id>' },
    ],
    options: [
      { flags: '-f, --raw-field <key=value>', description: 'a string field (repeat for several; key[]=v appends to an array)', repeatable: true },
      { flags: '-F, --field <key=value>', description: 'a typed field: true, false, null and numbers as JSON; @file attaches a file (multipart)', repeatable: true },
      { flags: '--input <file>', description: 'the JSON body from a file, or - for stdin (fields then go in the query string)' },
      { flags: '-H, --header <name:value>', description: 'an extra request header, e.g. Idempotency-Key:k1 (repeat for several)', repeatable: true },
      { flags: '--raw', description: 'print the body as received, with its envelope' },
      { flags: '-i, --include', description: 'print the status line and the response headers first' },
    ],
    examples: [
      'kct api /credits',
      'kct api GET /models --raw',
      'kct api POST /evaluations/one-pass -F model_id=12 -f paper_content="My essay" -H Idempotency-Key:essay-1',
      'kct api POST /evaluations/one-pass -F model_id=12 -F answer_files=@essay.pdf',
      'kct api POST /evaluations/batch --input batch.json',
      'jq -n \'{style: "paragraph", sections: []}\' | kct api POST /feedback-rewrite --input -',
      'kct api GET /evaluations/tsk_0123abcd/status --include',
    ],
    load: () => import('../commands/api.js'),
  },
  {
    name: 'completion',
    summary: 'print a shell completion script (bash, zsh or fish) for commands, flags, their values and model ids',
    args: [{ syntax: '<shell>', description: 'bash, zsh or fish' }],
    examples: [
      'source <(kct completion bash)                              # this shell only; add it to ~/.bashrc to keep it',
      'kct completion zsh > "${fpath[1]}/_kct"                    # then start a new zsh',
      'kct completion fish > ~/.config/fish/completions/kct.fish',
    ],
    load: () => import('../commands/completion.js'),
  },
  {
    name: '__complete',
    hidden: true,
    summary: 'values for shell completion (model ids), cached briefly',
    args: [{ syntax: '<kind>', description: 'model-ids' }],
    examples: ['kct __complete model-ids'],
    load: () => import('../commands/complete-values.js'),
  },
  {
    name: 'version',
    summary: 'print kct\'s version, with the Node.js version and platform it runs on',
    examples: ['kct version', 'kct version --json'],
    load: () => import('../commands/version.js'),
  },
];

const COMMANDS: CommandSpec[] = [
  {
    name: 'credits',
    summary: 'show the credits left on the key owner\'s account',
    examples: ['kct credits', 'kct credits --json'],
    load: () => import('../commands/credits.js'),
  },
  {
    name: 'models',
    summary: 'list the marking models this key can use; build new ones (show, create, new)',
    options: [{ flags: '--ready', description: 'only models that are ready to mark with' }, output()],
    examples: [
      'kct models',
      'kct models --ready --output csv',
      'kct models --json | jq ".[].model_id"',
      'kct models show 12',
      'kct models create --questions questions.yaml --rubrics rubrics.yaml --wait',
      'kct models new paper.pdf --rubric rubric.docx',
    ],
    load: () => import('../commands/models.js'),
    subcommands: [
      {
        name: 'show',
        summary: 'show one model (from GET /models) with every field the service sent',
        args: [{ syntax: '<id>', description: 'model id from `kct models`' }],
        examples: ['kct models show 12', 'kct models show 1001 --json'],
        load: () => import('../commands/models-show.js'),
      },
      {
        name: 'create',
        summary: 'create (train) a model from checked question and rubric previews (see `kct ingest`); prints "<id>  <status>  <name>"',
        options: [
          { flags: '--questions <file>', description: 'questions preview (.yaml or .json) from `kct ingest questions`', required: true },
          { flags: '--rubrics <file>', description: 'rubrics preview (.yaml or .json) from `kct ingest rubrics`', required: true },
          { flags: '--name <name>', description: 'model name (assignment_name); default: the questions file\'s assignment_name' },
          { flags: '--desc <text>', description: 'description (assignment_desc); default: the questions file\'s assignment_desc' },
          { flags: '--subject <subject>', description: 'subject (project_subject)' },
          { flags: '--total-score <n>', description: 'total score; default: the rubrics file\'s total_score' },
          { flags: '--cum-method <method>', description: 'how criterion scores make the total; default: the rubrics file\'s cum_method', choices: ['sum', 'average'] },
          { flags: '--wait', description: 'poll until the model is ready (same backoff and --timeout as task watching)' },
          { flags: '-y, --yes', description: 'create without asking (needed off a terminal)' },
          ...watchOptions,
        ],
        examples: [
          'kct models create --questions questions.yaml --rubrics rubrics.yaml',
          'kct models create --questions questions.yaml --rubrics rubrics.yaml --name "Homework letter" --desc "Year 10 persuasive letter" --wait --yes',
          'kct models create --questions q.json --rubrics r.json --total-score 30 --cum-method sum --yes --json',
          'id=$(kct models create --questions questions.yaml --rubrics rubrics.yaml --yes | cut -d" " -f1)',
        ],
        load: () => import('../commands/models-create.js'),
      },
      {
        name: 'new',
        summary: 'guided, on a terminal: parse a question paper and a rubric, edit the previews, create, wait until ready',
        args: [{ syntax: '<question-files...>', description: 'the question paper: PDF, DOCX, RTF, TXT or images (pages in order)' }],
        options: [
          { flags: '--rubric <files...>', description: 'the rubric file(s)', required: true },
          { flags: '--total-score <n>', description: 'total score of the rubric (asked when missing)' },
          { flags: '--cum-method <method>', description: 'how criterion scores make the total (asked when missing)', choices: ['sum', 'average'] },
          { flags: '--name <name>', description: 'model name (default: the paper\'s title)' },
          { flags: '--desc <text>', description: 'description (default: the paper\'s instructions)' },
          { flags: '--subject <subject>', description: 'subject (project_subject)' },
          { flags: '--spec <text>', description: 'use only the named question, e.g. "question 2"' },
          { flags: '--dir <folder>', description: 'where to keep the preview files (default: a new temporary folder)' },
          { flags: '-y, --yes', description: 'create without the final question' },
          ...watchOptions,
        ],
        examples: [
          'kct models new paper.pdf --rubric rubric.docx',
          'EDITOR=nano kct models new page1.png page2.png --rubric rubric.pdf --total-score 30 --cum-method sum',
          'kct models new examples/question-paper.pdf --rubric examples/rubric.pdf --dir ./homework-model',
        ],
        load: () => import('../commands/models-new.js'),
      },
    ],
  },
  {
    name: 'ingest',
    summary: 'parse a question paper or a rubric into a preview file to check and edit before `kct models create`',
    examples: [
      'kct ingest questions paper.pdf -o questions.yaml',
      'kct ingest rubrics rubric.docx --total-score 30 --cum-method sum -o rubrics.yaml',
    ],
    subcommands: [
      {
        name: 'questions',
        summary: 'parse question files or URLs (POST /questions-ingest-preview) into questions.yaml',
        args: [{ syntax: '[files...]', description: 'question paper: PDF, DOCX, RTF, TXT, PNG/JPEG/WebP/GIF (up to 10, 20 MB each)' }],
        options: [
          { flags: '--asset <url>', description: 'a public https URL of a file, or a URL from `kct upload` (repeat for several)', repeatable: true },
          { flags: '--spec <text>', description: 'parse only the named question (specification), e.g. "question 2"' },
          { flags: '--name <name>', description: 'model name to put in the preview (assignment_name); default: the paper\'s title' },
          { flags: '--desc <text>', description: 'description to put in the preview (assignment_desc); default: the paper\'s instructions' },
          { flags: '-o, --output <file>', description: 'preview file to write: .yaml, .yml or .json', defaultValue: 'questions.yaml' },
          { flags: '--force', description: 'replace the output file if it exists' },
        ],
        examples: [
          'kct ingest questions paper.pdf',
          'kct ingest questions page1.jpg page2.jpg -o questions.yaml',
          'kct ingest questions --asset "$(kct upload paper.pdf --json | jq -r ".[0].url")" -o questions.json',
          'kct ingest questions paper.docx --asset https://school.example/extract.pdf --spec "question 2" --name "Homework letter"',
          'kct ingest questions paper.pdf --json > preview.json',
        ],
        load: () => import('../commands/ingest-questions.js'),
      },
      {
        name: 'rubrics',
        summary: 'parse rubric files or URLs (POST /rubrics-ingest-preview) into rubrics.yaml',
        args: [{ syntax: '[files...]', description: 'rubric: PDF, DOCX, RTF, TXT, PNG/JPEG/WebP/GIF (up to 10, 20 MB each)' }],
        options: [
          { flags: '--total-score <n>', description: 'total score of the rubric', required: true },
          { flags: '--cum-method <method>', description: 'how criterion scores make the total', choices: ['sum', 'average'], required: true },
          { flags: '--asset <url>', description: 'a public https URL of a file, or a URL from `kct upload` (repeat for several)', repeatable: true },
          { flags: '--spec <text>', description: 'use only the rubric section of the named question, e.g. "question 2"' },
          { flags: '-o, --output <file>', description: 'preview file to write: .yaml, .yml or .json', defaultValue: 'rubrics.yaml' },
          { flags: '--force', description: 'replace the output file if it exists' },
        ],
        examples: [
          'kct ingest rubrics rubric.docx --total-score 30 --cum-method sum',
          'kct ingest rubrics rubric.pdf --total-score 10 --cum-method average -o rubrics.json',
          'kct ingest rubrics --asset https://school.example/rubric.pdf --total-score 30 --cum-method sum --force',
        ],
        load: () => import('../commands/ingest-rubrics.js'),
      },
    ],
  },
  {
    name: 'one-pass',
    summary: 'mark answers: each file (or folder of files) becomes a task, watched until marked',
    args: [{ syntax: '[answers...]', description: 'answer files (PDF, DOCX, RTF, TXT, PNG/JPEG/WebP/GIF), folders of them, or - for text on stdin' }],
    options: [
      { flags: '-m, --model <id>', description: 'marking model id from `kct models` (default: config `model`, env KCT_MODEL)' },
      { flags: '--text <answer>', description: 'the answer as text instead of a file' },
      { flags: '--files-from <list>', description: 'read answer paths from a file, one per line (- for stdin)' },
      { flags: '--student-id-from <source>', description: 'student_id of each answer: its file name without extension, its student folder (the first folder level, with --recursive), or none', choices: ['name', 'folder', 'none'], defaultValue: 'name' },
      { flags: '-r, --recursive', description: 'also mark the answers in subfolders of a folder' },
      { flags: '--exclude <glob>', description: 'leave out paths matching this glob, relative to the folder (repeatable): "drafts/**", "*.docx"', repeatable: true },
      { flags: '--group-by <unit>', description: 'folder: the files of each student folder are the pages of one answer (implies --recursive)', choices: ['folder'] },
      { flags: '--skip-unsupported', description: 'mark the answers that can be sent; list files that cannot (type, empty, size) as SKIPPED instead of stopping' },
      { flags: '--pages', description: 'the files are the pages of ONE answer: one request, up to 10 files' },
      { flags: '-j, --jobs <n>', description: 'submissions in flight at once', defaultValue: '4' },
      { flags: '--resume <journal>', description: 'record each answer\'s task and row in this file; a re-run sends nothing for finished answers and follows running ones' },
      { flags: '--via <route>', description: 'how plain-text answers are sent: one request each (one-pass), 100 to a request (batch), or batch from 500 of them (auto)', choices: ['auto', 'one-pass', 'batch'], defaultValue: 'auto' },
      maxRps(),
      { flags: '--rubric-file <path...>', description: 'rubric file(s) instead of the model\'s saved rubric' },
      { flags: '--rubric-text <text>', description: 'rubric as text' },
      { flags: '--question-file <path...>', description: 'question file(s)' },
      { flags: '--question-text <text>', description: 'question as text' },
      { flags: '--name <name>', description: 'assignment name (assignment_name)' },
      { flags: '--desc <text>', description: 'assignment description (assignment_desc)' },
      { flags: '--cum-method <method>', description: 'how criterion scores add up', choices: ['sum', 'average'] },
      { flags: '--total-score <n>', description: 'hint of the rubric total (with --rubric-file or --rubric-text, a warning when the criteria add up to another total)' },
      { flags: '--spec <text>', description: 'parsing instruction (specification), e.g. "question 2 only"' },
      { flags: '--style <style>', description: 'feedback style', choices: ['Bullet', 'Short', 'Long'] },
      { flags: '--student-id <id>', description: 'your anonymous student id, passed through' },
      { flags: '--idempotency-key <key>', description: 'your base key: each answer is sent as <key>-<its path relative to its folder, or its --student-id> (default: derived from model, fields and file contents)' },
      { flags: '--no-wait', description: 'print the accepted task and exit without waiting' },
      { flags: '--report <file>', description: 'also write a class report, one self-contained HTML file (see `kct report`)' },
      ...watchOptions,
      output(),
    ],
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
      'kct one-pass moodle-export/ --recursive --student-id-from folder --group-by folder --model 12 --output csv',
      'kct one-pass answers/ --model 12 --exclude "drafts/**" --skip-unsupported',
      'kct one-pass answers/ --model 12 --idempotency-key class9   # keys class9-a1.txt, class9-a2.txt, ...',
      'kct one-pass answers/ --model 12 --report class.html              # and a class report to open in a browser',
      'kct one-pass district/ --recursive --model 12 --resume district.journal --timeout 12h --output ndjson > marks.ndjson',
    ],
    load: () => import('../commands/one-pass.js'),
  },
  {
    name: 'status',
    summary: 'show a task\'s status snapshot (exit 3 if it ended FAILURE or CANCEL); --watch polls until it is final',
    args: [{ syntax: '<taskId>', description: 'task id' }],
    options: [{ flags: '-w, --watch', description: 'poll until the task is final (exit 8 if --timeout runs out first)' }, ...watchOptions],
    examples: ['kct status tsk_0123abcd', 'kct status tsk_0123abcd --watch', 'kct status tsk_0123abcd --watch --timeout 5m --json'],
    load: () => import('../commands/status.js'),
  },
  {
    name: 'result',
    summary: 'print a task\'s result record (scores and feedback), or a batch\'s items; exit 3 if any ended FAILURE or CANCEL',
    args: [{ syntax: '<taskId>', description: 'task id, or the id of a batch (one row per item)' }],
    options: [output()],
    examples: ['kct result tsk_0123abcd', 'kct result tsk_0123abcd --json > result.json', 'kct result <batch task id> --output csv > marks.csv'],
    load: () => import('../commands/result.js'),
  },
  {
    name: 'cancel',
    summary: 'cancel a queued or running task (one-pass and batch tasks are then never charged)',
    args: [{ syntax: '<taskId>', description: 'task id' }],
    examples: ['kct cancel tsk_0123abcd'],
    load: () => import('../commands/cancel.js'),
  },
  {
    name: 'assign',
    summary: 'create a student assignment from a ready model (for the legacy `kct evaluate` path)',
    options: [
      { flags: '-m, --model <id>', description: 'ready model id (default: config `model`, env KCT_MODEL)' },
      { flags: '--name <name>', description: 'assignment name', required: true },
      { flags: '--desc <text>', description: 'assignment description', required: true },
      { flags: '--deadline <date>', description: 'deadline: 2026-12-01 (end of that day), 2026-12-01T17:00, or full ISO 8601', required: true },
      { flags: '--expected <n>', description: 'expected number of answers', required: true },
      { flags: '--subject <subject>', description: 'subject (project_subject)' },
      { flags: '--start <date>', description: 'start date, same forms as --deadline' },
      { flags: '--file-type <type>', description: 'expected answer type (default pdf)', choices: ['word', 'pdf', 'image', 'text'] },
    ],
    examples: [
      'kct assign --model 12 --name "Uniform essay" --desc "Year 9 persuasive essay" --deadline 2026-12-01 --expected 28',
      'kct assign --model 12 --name "Essay" --desc "Draft" --deadline 2026-12-01T17:00 --expected 30 --file-type word --json',
    ],
    load: () => import('../commands/assign.js'),
  },
  {
    name: 'evaluate',
    summary: 'submit one answer to an assignment (legacy path: charged at acceptance, never retried)',
    args: [{ syntax: '[files...]', description: 'the answer: up to 10 files (pages of one answer), or - for text on stdin' }],
    options: [
      { flags: '-a, --assignment <id>', description: 'assignment id from `kct assign` (not a model id)', required: true },
      { flags: '--text <answer>', description: 'the answer as text' },
      { flags: '--feedback-json <file>', description: 'JSON array of {item, comment, score} sent as current_feedbacks' },
      { flags: '--style <style>', description: 'feedback style', choices: ['Bullet', 'Short', 'Long'] },
      { flags: '--student-id <id>', description: 'your anonymous student id' },
      { flags: '--no-wait', description: 'print the accepted task and exit' },
      ...watchOptions,
      output(),
    ],
    examples: [
      'kct evaluate --assignment 1001 essay.pdf',
      'kct evaluate --assignment 1001 page1.png page2.png --student-id s-7',
      'kct evaluate --assignment 1001 - --feedback-json feedback.json < essay.txt',
    ],
    load: () => import('../commands/evaluate.js'),
  },
  {
    name: 'batch',
    summary: 'mark many text answers through /evaluations/batch (split into requests of 100)',
    args: [{ syntax: '<manifest>', description: 'a .jsonl or .csv file of items (paper_content or file, student_id, ...), or a folder of .txt answers' }],
    options: [
      { flags: '-m, --model <id>', description: 'model id for items that do not name one' },
      { flags: '--callback-url <url>', description: 'public https URL the service calls when a batch is final' },
      { flags: '-r, --recursive', description: 'a folder manifest: also its subfolders (as one-pass)' },
      { flags: '--exclude <glob>', description: 'a folder manifest: leave out paths matching this glob (repeatable, as one-pass)', repeatable: true },
      { flags: '--idempotency-key <key>', description: 'your base key: each request of at most 100 items is sent as <key>-batch-<SHA-256 of its items\' files or student ids> (default: derived from each request)' },
      { flags: '--no-wait', description: 'print the accepted batch tasks and exit' },
      maxRps(),
      ...watchOptions,
      output(),
    ],
    examples: [
      'kct batch answers.jsonl --model 12',
      'kct batch answers/ --model 12 --output csv > marks.csv',
      'kct batch class.csv --model 12 --callback-url https://school.example/kct-hook --no-wait',
    ],
    load: () => import('../commands/batch.js'),
  },
  {
    name: 'upload',
    summary: 'upload files and print their reusable public URLs (for --asset)',
    args: [{ syntax: '<files...>', description: 'files to upload, one request each' }],
    options: [output()],
    examples: ['kct upload questions.pdf rubric.docx', 'kct upload scan.png --json | jq -r ".[0].url"'],
    load: () => import('../commands/upload.js'),
  },
  {
    name: 'rewrite',
    summary: 'rewrite a finished evaluation\'s feedback in another style',
    args: [{ syntax: '<source>', description: 'task id, a result file saved with `kct result <id> --json` (any name), or - to read it from stdin' }],
    options: [
      { flags: '--style <style>', description: 'new style', choices: ['bullet_points', 'paragraph', 'short_sentences'] },
      { flags: '--item <criterion>', description: 'rewrite only this criterion' },
      { flags: '--instruction <text>', description: 'free-text instruction, e.g. "address the student as you"' },
      output(),
    ],
    examples: [
      'kct rewrite tsk_0123abcd --style paragraph',
      'kct rewrite result.json --style short_sentences --item "Evidence & reasoning"',
      'kct result tsk_0123abcd --json | kct rewrite - --style paragraph',
      'kct rewrite tsk_0123abcd --style bullet_points --instruction "encouraging, second person" --json',
    ],
    load: () => import('../commands/rewrite.js'),
  },
  {
    name: 'report',
    summary: 'make a class report, one self-contained HTML file, from a saved run (charts, sortable marks, feedback, failures)',
    args: [{ syntax: '<source>', description: 'a saved run: the ndjson of `kct one-pass` or `kct batch --output ndjson`, or - for stdin' }],
    options: [
      { flags: '-o, --output <file>', description: 'the HTML file to write (replaced if it exists); - or none for stdout when it is not a terminal' },
      { flags: '--title <text>', description: 'the report\'s title', defaultValue: 'Class report' },
    ],
    examples: [
      'kct one-pass answers/ --model 12 --output ndjson > marks.ndjson && kct report marks.ndjson -o class.html',
      'kct batch answers.jsonl --model 12 --output ndjson | kct report - -o class.html',
      'kct report marks.ndjson -o 9B-uniform-essay.html --title "9B: uniform essay"',
    ],
    load: () => import('../commands/report.js'),
  },
  {
    name: 'callbacks',
    summary: 'tools for batch callbacks: verify one, or listen for them locally',
    examples: [
      'KCT_WEBHOOK_SECRET=whsec_... kct callbacks verify --id msg_1 --timestamp 1700000000 --signature "v1,..." < body.json',
      'KCT_WEBHOOK_SECRET=whsec_... kct callbacks listen --port 8080',
    ],
    subcommands: [
      {
        name: 'verify',
        summary: 'check a callback\'s Standard Webhooks signature (secret from KCT_WEBHOOK_SECRET or --secret-file)',
        options: [
          { flags: '--id <id>', description: 'the webhook-id header' },
          { flags: '--timestamp <seconds>', description: 'the webhook-timestamp header' },
          { flags: '--signature <sig>', description: 'the webhook-signature header' },
          { flags: '--body <file>', description: 'the raw body (default: stdin)' },
          { flags: '--secret-file <file>', description: 'file holding the secret' },
        ],
        examples: ['kct callbacks verify --id "$ID" --timestamp "$TS" --signature "$SIG" --body body.json'],
        load: () => import('../commands/callbacks-verify.js'),
      },
      {
        name: 'listen',
        summary: 'receive batch callbacks on a local port, verify each signature, print the events (or forward them)',
        options: [
          { flags: '--port <port>', description: 'port to listen on (0 picks a free one)', defaultValue: '8080' },
          { flags: '--host <host>', description: 'address to listen on', defaultValue: '127.0.0.1' },
          { flags: '--forward-to <url>', description: 'also POST each verified callback, body and webhook headers unchanged, to this URL' },
          { flags: '--secret-file <file>', description: 'file holding the secret (default: KCT_WEBHOOK_SECRET)' },
          { flags: '--count <n>', description: 'stop after this many verified events' },
        ],
        examples: [
          'KCT_WEBHOOK_SECRET=whsec_... kct callbacks listen --port 8080',
          'kct callbacks listen --port 8080 --forward-to http://127.0.0.1:3000/hooks/kct --secret-file secret.txt',
          'kct callbacks listen --port 8080 --count 1 --json > event.json',
        ],
        load: () => import('../commands/callbacks-listen.js'),
      },
    ],
  },
  {
    name: 'auth',
    summary: 'store, check and remove the API key of a profile',
    examples: ['kct auth login --base-url https://api.example/v1', 'echo "$KEY" | kct auth login --with-key', 'kct auth status', 'kct auth logout'],
    subcommands: [
      {
        name: 'login',
        summary: 'store an API key (asked for on a TTY, or read from stdin with --with-key) after checking it',
        options: [
          { flags: '--with-key', description: 'read the key from standard input (for scripts); never pass a key as an argument' },
        ],
        examples: ['kct auth login', 'kct auth login --profile school --base-url https://api.example/v1', 'printf %s "$KCT_KEY" | kct auth login --with-key'],
        load: () => import('../commands/auth-login.js'),
      },
      {
        name: 'status',
        summary: 'say which key is in use (masked), where it comes from, and whether the server accepts it (scope, account)',
        examples: ['kct auth status', 'kct auth status --json'],
        load: () => import('../commands/auth-status.js'),
      },
      {
        name: 'logout',
        summary: 'remove the stored key of the profile',
        examples: ['kct auth logout', 'kct auth logout --profile school'],
        load: () => import('../commands/auth-logout.js'),
      },
    ],
  },
  {
    name: 'keys',
    summary: 'create, list and revoke the API keys of an account, after signing in to the product (spec 5.4)',
    examples: [
      'kct keys list --account org_admin',
      'KEY=$(kct keys create --scope user --name ci --account user)',
      'kct keys create --scope organization --account org_admin --save-as school',
      'kct keys revoke 7 --account user',
    ],
    subcommands: [
      {
        name: 'create',
        summary: 'create a key and print it once (or store it straight into a profile with --save-as; only its masked form is printed)',
        options: [
          { flags: '--scope <scope>', description: 'user: the account\'s own models; organization: its organization\'s (organization admins only)', choices: ['user', 'organization'], required: true },
          { flags: '--name <name>', description: 'a name to tell the key apart in `kct keys list`' },
          { flags: '--save-as <profile>', description: 'store the key in this profile, with the base URL, instead of printing it (never replaces a stored key)' },
          ...signInOptions,
        ],
        examples: [
          'kct keys create --scope user --name laptop --account user',
          'KEY=$(printf %s "$PASSWORD" | kct keys create --scope user --account user --password-stdin)',
          'kct keys create --scope organization --name ci --account org_admin --save-as ci && kct --profile ci credits',
          'kct keys create --scope user --account user --json | jq -r .key',
        ],
        load: () => import('../commands/keys-create.js'),
      },
      {
        name: 'list',
        summary: 'list the account\'s keys, masked (kct_****abcd), with scope, creation date and state (active or revoked)',
        options: [...signInOptions, output()],
        examples: [
          'kct keys list --account user',
          'KCT_ACCOUNT=org_admin kct keys list --output csv',
          'printf %s "$PASSWORD" | kct keys list --account user --password-stdin --json',
        ],
        load: () => import('../commands/keys-list.js'),
      },
      {
        name: 'revoke',
        summary: 'revoke one of the account\'s keys: every request with it is refused from then on (asks first on a terminal)',
        args: [{ syntax: '<key>', description: 'the key\'s id or its masked form (kct_****abcd), from `kct keys list`' }],
        options: [
          { flags: '-y, --yes', description: 'revoke without asking (needed off a terminal)' },
          ...signInOptions,
        ],
        examples: [
          'kct keys revoke 7 --account user',
          'kct keys revoke "kct_****3f9a" --account user',
          'printf %s "$PASSWORD" | kct keys revoke 7 --account user --password-stdin --yes',
        ],
        load: () => import('../commands/keys-revoke.js'),
      },
    ],
  },
  {
    name: 'config',
    summary: 'read and change settings: base_url, model, output, product_url, account',
    examples: ['kct config set model 12', 'kct config get base_url', 'kct config unset model', 'kct config list', 'kct config path'],
    subcommands: [
      { name: 'get', summary: 'print one setting', args: [{ syntax: '<key>', description: 'base_url, model, output, product_url or account' }], examples: ['kct config get model'], load: () => import('../commands/config-get.js') },
      {
        name: 'set',
        summary: 'change one setting of the profile',
        args: [{ syntax: '<key>', description: 'base_url, model, output, product_url or account' }, { syntax: '<value>', description: 'new value' }],
        examples: ['kct config set base_url http://127.0.0.1:4010/v1', 'kct config set output json', 'kct --profile school config set model 21'],
        load: () => import('../commands/config-set.js'),
      },
      {
        name: 'unset',
        summary: 'remove one setting from the profile (the environment, if set, then applies)',
        args: [{ syntax: '<key>', description: 'base_url, model, output, product_url or account' }],
        examples: ['kct config unset model', 'kct --profile school config unset output'],
        load: () => import('../commands/config-unset.js'),
      },
      { name: 'list', summary: 'print every setting and where it comes from', examples: ['kct config list', 'kct config list --json'], load: () => import('../commands/config-list.js') },
      { name: 'path', summary: 'print the config file path', examples: ['kct config path'], load: () => import('../commands/config-path.js') },
    ],
  },
  {
    name: 'sandbox',
    summary: 'run a local, durable implementation of the whole API (offline, for trying kct and for tests)',
    options: [
      { flags: '--host <host>', description: 'address to listen on', defaultValue: '127.0.0.1' },
      { flags: '--port <port>', description: 'port (0 picks a free one)', defaultValue: '4010' },
      { flags: '--data <dir>', description: 'data folder (SQLite database and files); default: $XDG_DATA_HOME/kct/sandbox' },
      { flags: '--latency <ms>', description: 'milliseconds per processing stage', defaultValue: '300' },
      { flags: '--workers <n>', description: 'tasks processed at once', defaultValue: '4' },
      { flags: '--allow-private-callbacks', description: 'allow callbacks to loopback/private addresses and plain http (for local receivers)' },
      { flags: '--time-scale <n>', description: 'divide the callback retry schedule by n (tests)', defaultValue: '1' },
      { flags: '--training-delay <ms>', description: 'milliseconds a model made with POST /models stays "training" before it is ready', defaultValue: '0' },
      { flags: '--grader <engine>', description: 'who marks: "sandbox" (deterministic, the default) or "openai" (your OpenAI-compatible server)', defaultValue: 'sandbox' },
      { flags: '--grader-url <url>', description: 'with --grader openai: base URL of the API, e.g. http://127.0.0.1:11434/v1 (key, if any, from KCT_GRADER_API_KEY)' },
      { flags: '--grader-model <name>', description: 'with --grader openai: model name on that server' },
      { flags: '--grader-timeout <ms>', description: 'with --grader openai: time limit per model request', defaultValue: '120000' },
      { flags: '--grader-concurrency <n>', description: 'with --grader openai: model requests at once', defaultValue: '2' },
      { flags: '--public-url <url>', description: 'origin of the upload URLs it hands out (default: the listen address), e.g. https://sandbox.school.example' },
      { flags: '--threads <n>', description: 'worker threads for reading files and marking (default: the number of cores)' },
      { flags: '--job-timeout <duration>', description: 'longest one stage of a task (or a preview) may compute', defaultValue: '180s' },
      { flags: '--request-timeout <duration>', description: 'a whole request (headers and body) must arrive within this', defaultValue: '60s' },
      { flags: '--headers-timeout <duration>', description: 'the headers of a request must arrive within this', defaultValue: '10s' },
      { flags: '--idle-timeout <duration>', description: 'a connection silent this long while awaited is closed', defaultValue: '10s' },
      { flags: '--max-connections <n>', description: 'connections one client address may hold open (more get 503)', defaultValue: '64' },
      { flags: '--log', description: 'print one line per request, and internal errors, on stderr (keys redacted)' },
    ],
    examples: [
      'kct sandbox',
      'kct sandbox --port 0 --json --data /tmp/kct-sbx --latency 0',
      'kct sandbox --training-delay 5000   # new models take 5 s to become ready',
      'kct sandbox --grader openai --grader-url http://127.0.0.1:11434/v1 --grader-model llama3.1:8b   # mark with Ollama',
      'kct sandbox --host 0.0.0.0 --public-url http://192.168.1.20:4010   # on a school network',
      'KCT_BASE_URL=http://127.0.0.1:4010/v1 KCT_API_KEY=<user key> kct one-pass essay.pdf --model 12',
    ],
    load: () => import('../commands/sandbox.js'),
  },
  ...TOOL_COMMANDS,
];

const TOP_EXAMPLES = [
  'kct sandbox                               # a local API to try things on',
  'kct auth login --base-url https://api.example/v1',
  'kct models',
  'kct one-pass essay.pdf --model 12',
  'kct status <task_id> --watch',
];

export function buildProgram(version: string, onContext: (globals: GlobalOptions) => Context): Command {
  const program = new Command('kct')
    .description('Mark student writing with the Public Evaluation API v1.')
    .version(version, '-V, --version', 'print the version')
    .option('-p, --profile <name>', 'config profile (env KCT_PROFILE)')
    .option('--base-url <url>', 'API root, e.g. https://host/v1 (env KCT_BASE_URL)')
    .option('--json', 'print machine-readable JSON on stdout')
    .option('--debug', 'trace HTTP requests and responses on stderr (key redacted)')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('--no-pager', 'never page long output (pager: KCT_PAGER, PAGER, else less -FRX)')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', `
Examples:
${TOP_EXAMPLES.map((line) => `  $ ${line}`).join('\n')}

Exit codes: run \`kct help exit-codes\`.`);

  setExamples(program, TOP_EXAMPLES);
  for (const spec of COMMANDS) program.addCommand(toCommand(spec, onContext), { hidden: spec.hidden });
  program
    .command('help-exit-codes', { hidden: true })
    .action(async () => {
      const { printExitCodes } = await import('./help-topics.js');
      printExitCodes(onContext(program.opts<GlobalOptions>()));
    });
  return program;
}

function toCommand(spec: CommandSpec, onContext: (globals: GlobalOptions) => Context, parents: string[] = []): Command {
  const path = [...parents, spec.name].join(' ');
  const command = new Command(spec.name).description(spec.summary);
  for (const alias of spec.aliases ?? []) command.alias(alias);
  for (const arg of spec.args ?? []) command.argument(arg.syntax, arg.description);
  for (const option of spec.options ?? []) {
    const built = new Option(option.flags, option.description);
    if (option.choices) built.choices(option.choices);
    if (option.defaultValue !== undefined) built.default(option.defaultValue);
    if (option.hidden) built.hideHelp();
    if (option.required) built.makeOptionMandatory();
    if (option.repeatable) built.argParser((value: string, previous: unknown) => [...(Array.isArray(previous) ? previous : []), value]);
    command.addOption(built);
  }
  command.addHelpText('after', `\nExamples:\n${spec.examples.map((line) => `  $ ${line}`).join('\n')}\n`);
  setExamples(command, spec.examples);
  if (spec.subcommands) {
    for (const sub of spec.subcommands) command.addCommand(toCommand(sub, onContext, [...parents, spec.name]), { hidden: sub.hidden });
    // A group with its own module also runs on its own (`kct models` lists, `kct models show` shows).
    if (!spec.load) return command;
  }
  const load = spec.load;
  if (!load) throw new Error(`command ${spec.name} has neither a module nor subcommands`);
  const argNames = (spec.args ?? []).map((arg) => arg.syntax.replace(/[<>[\].]/g, '').replace(/-(\w)/g, (_, c: string) => c.toUpperCase()));
  command.action(async function action(this: Command, ...values: unknown[]) {
    const all = this.optsWithGlobals<Record<string, unknown> & GlobalOptions>();
    const positional: Record<string, unknown> = {};
    argNames.forEach((name, index) => {
      positional[name] = values[index];
    });
    const context = onContext(all);
    const module = await load();
    const stopPager = PAGED_COMMANDS.has(path) ? await startPager(context) : undefined;
    try {
      await module.run({ ...all, ...positional }, context);
    } finally {
      await stopPager?.();
    }
  });
  return command;
}
