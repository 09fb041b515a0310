// 8. The offline grader (packages/sandbox/dist, after npm run build): (a) what the word list of
// the spelling check costs a thread once: a fresh Node process imports the grader's spelling
// module and checks one word, timed from just before that first check (reading SCOWL's lists
// into a Set) and its heap after; medians of 10 processes, min and max. (b) What marking one answer
// costs once the list is read: every labelled answer of test/fixtures/graded (with its seeded
// model) and the real answers (model 12), graded in one process, medians of 5 rounds per answer;
// against it, the spelling check alone on the same answers' words (isWord on every token).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fixed, log, median, QUICK, ROOT, table } from './lib.js';

const DIST = join(ROOT, 'packages', 'sandbox', 'dist');
const PROCESSES = QUICK ? 3 : 10;
const ROUNDS = QUICK ? 1 : 5;

/** One fresh process: milliseconds to read the list on the first check, and the heap it took (MB). */
function loadOnce() {
  const script = `
    const { isWord } = await import(${JSON.stringify(pathToFileURL(join(DIST, 'engines', 'grading', 'spelling.js')).href)});
    const before = process.memoryUsage().heapUsed;
    const t = performance.now();
    isWord('uniform');
    const ms = performance.now() - t;
    console.log(JSON.stringify({ ms, mb: (process.memoryUsage().heapUsed - before) / 1e6 }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

function answers(seedModels) {
  const graded = join(ROOT, 'test', 'fixtures', 'graded');
  const out = [];
  for (const set of readdirSync(graded, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const labels = JSON.parse(readFileSync(join(graded, set.name, 'labels.json'), 'utf8'));
    const model = seedModels.find((m) => m.model_id === labels.models[0]);
    for (const a of labels.answers) out.push({ model, text: readFileSync(join(graded, set.name, a.file), 'utf8') });
  }
  const model12 = seedModels.find((m) => m.model_id === 12);
  for (const file of readdirSync(join(ROOT, 'test', 'fixtures', 'real')))
    out.push({ model: model12, text: readFileSync(join(ROOT, 'test', 'fixtures', 'real', file), 'utf8') });
  return out;
}

export async function run() {
  const loads = Array.from({ length: PROCESSES }, loadOnce);
  const ms = loads.map((l) => l.ms);
  const mb = loads.map((l) => l.mb);

  const { grade } = await import(pathToFileURL(join(DIST, 'engines', 'grader.js')).href);
  const { isWord } = await import(pathToFileURL(join(DIST, 'engines', 'grading', 'spelling.js')).href);
  const { SEED_MODELS } = await import(pathToFileURL(join(DIST, 'store', 'seed-models.js')).href);
  const all = answers(SEED_MODELS);
  isWord('warm');
  const mark = ({ model, text }) =>
    grade({
      answerText: text,
      questionText: model.question_text,
      assignmentDesc: model.assignment_desc,
      rubrics: model.rubrics,
      cumMethod: model.cum_method,
      totalScore: model.total_score,
      style: 'Bullet',
    });
  const spell = ({ text }) => {
    for (const w of text.toLowerCase().match(/\p{L}+(?:['’]\p{L}+)*/gu) ?? []) isWord(w);
  };
  const perAnswer = (fn) =>
    all.map((a) => {
      const times = [];
      for (let r = 0; r < ROUNDS; r++) {
        const t = performance.now();
        fn(a);
        times.push(performance.now() - t);
      }
      return median(times);
    });
  const graded = perAnswer(mark);
  const spelling = perAnswer(spell);
  const words = all.map((a) => a.text.split(/\s+/).length);

  log(
    table(
      ['measure', 'median', 'min', 'max'],
      [
        ['word list read on first use (ms)', fixed(median(ms), 1), fixed(Math.min(...ms), 1), fixed(Math.max(...ms), 1)],
        ['heap it takes (MB)', fixed(median(mb), 1), fixed(Math.min(...mb), 1), fixed(Math.max(...mb), 1)],
        [
          `one answer graded (ms; ${all.length} answers, ${Math.min(...words)} to ${Math.max(...words)} words)`,
          fixed(median(graded), 2),
          fixed(Math.min(...graded), 2),
          fixed(Math.max(...graded), 2),
        ],
        [
          'spelling check alone, same answers (ms)',
          fixed(median(spelling), 3),
          fixed(Math.min(...spelling), 3),
          fixed(Math.max(...spelling), 3),
        ],
      ],
    ),
  );
  return [
    {
      benchmark: 'grader: word list, once per thread',
      kct: `${fixed(median(ms), 1)} ms, ${fixed(median(mb), 1)} MB`,
      floor: '-',
      ratio: '-',
      target: '-',
    },
    {
      benchmark: 'grader: one answer (spelling check within it)',
      kct: `${fixed(median(graded), 2)} ms`,
      floor: `${fixed(median(spelling), 3)} ms`,
      ratio: fixed(median(spelling) / median(graded), 3),
      target: '-',
    },
  ];
}
