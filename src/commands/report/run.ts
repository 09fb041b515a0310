// kct report: a class report as one self-contained HTML file, from a saved run in any shape kct
// writes one (src/cli/report/saved-run.ts). Nothing is sent anywhere; no key is needed.
import { basename, resolve } from 'node:path';
import { InterruptedError, UsageError } from '../../api/errors.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { exporterFor } from '../../cli/render/export.js';
import { plural } from '../../cli/render/style.js';
import { RepeatedRows } from '../../cli/report/repeats.js';
import { readSavedRun } from '../../cli/report/saved-run.js';
import { Spool } from '../../cli/report/spool.js';
import { type ReportInfo, ReportWriter, reportWritten } from '../../cli/report/writer.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  if (options.output !== undefined)
    context.notice(
      'note',
      '-o/--output FILE is now --out FILE (-o/--output name a format everywhere else in kct); it still works for now.',
    );
  const target = options.out ?? options.output ?? '-';
  // --json's record of the file written would be mixed into the page on stdout: refused before anything is read
  if (target === '-' && options.json) {
    throw new UsageError('--json prints the record of the report file written, and without --out stdout holds the page itself', {
      suggestion: 'Add --out class.html to have the page written there and its record ({file, answers, marked, ...}) printed as JSON.',
    });
  }
  if (target === '-' && context.io.stdoutIsTTY) {
    throw new UsageError('the report is an HTML file: say where to write it', {
      suggestion: `Add --out class.html (or pipe stdout into a file).`,
    });
  }
  if (options.source === '-' && context.io.stdinIsTTY) {
    throw new UsageError('- reads a saved run from stdin, but stdin is a terminal', {
      suggestion: 'Pipe a run into it: kct one-pass answers/ --output ndjson | kct report - --out class.html',
    });
  }
  if (target !== '-' && options.source !== '-' && resolve(target) === resolve(options.source)) {
    throw new UsageError('the report would replace the saved run it is made from', {
      suggestion: 'Name another file for --out, e.g. class.html.',
    });
  }
  const open = () =>
    ReportWriter.open({
      target,
      stdout: context.io.stdout,
      title: options.title,
      source: options.source === '-' ? 'stdin' : basename(options.source),
    });
  // stdin is kept in a private file as it is read: runs appended may have to be read twice
  const spool = options.source === '-' ? new Spool(context.io.stdin) : undefined;
  const rows = () => (spool ? readSavedRun('-', spool.reading()) : readSavedRun(options.source, context.io.stdin));
  const repeats = new RepeatedRows();
  let info: ReportInfo;
  try {
    let report = open();
    try {
      for await (const row of rows()) {
        if (context.signal.aborted) throw new InterruptedError('interrupted; no report was written');
        if (repeats.isNew(row)) report.add(row);
      }
      // an answer printed again that says more the second time (marked, or corrected): read again, keeping that row
      if (repeats.superseded > 0) {
        report.discard();
        report = open();
        const chosen = repeats.chosenRows();
        for await (const row of rows()) {
          if (context.signal.aborted) throw new InterruptedError('interrupted; no report was written');
          if (chosen(row)) report.add(row);
        }
      }
      info = await report.finish();
    } finally {
      report.discard();
    }
  } finally {
    spool?.remove();
  }
  sayRepeats(repeats, context);
  if (target === '-') return;
  // -o/--output is the old name of --out here, not a format: --json or the configured format
  await (await exporterFor({ json: options.json }, context)).record(info, () => {});
  context.note(reportWritten(info)); // its words are the report writer's, "kct: wrote ...": a progress notice
}

/** Runs appended into one file: what was counted once, and what twice. */
function sayRepeats(repeats: RepeatedRows, context: Context): void {
  if (repeats.repeated > 0)
    context.notice(
      'note',
      `${plural(repeats.repeated, 'row')} repeated another (${repeats.firstRepeated}${repeats.repeated > 1 ? ', …' : ''}): the same answer again, as when runs are appended (cat a.ndjson b.ndjson); each answer is counted once, as the row that says most of it (marked, else ended), the last of those`,
    );
  if (repeats.remarked > 0)
    context.notice(
      'warning',
      `${plural(repeats.remarked, 'row')} named an answer seen before with another task (${repeats.firstRemarked}${repeats.remarked > 1 ? ', …' : ''}): the saved run holds more than one run of it, or more than one answer under that name, and each of its marks is counted. For one mark an answer, report one run (a --resume journal keeps each answer's last row).`,
    );
  if (repeats.elsewhere > 0)
    context.notice(
      'warning',
      `${plural(repeats.elsewhere, 'row')} named a student and task seen before under another file (${repeats.firstElsewhere}${repeats.elsewhere > 1 ? ', …' : ''}), and no copy of it: most likely runs of the same answers from two places appended (a download's zip and its folder), and each row is counted. For one row a student, report one run.`,
    );
}
