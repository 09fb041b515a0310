// A class's summary counts every student: the answers it sent, marked or not, and beside them in the
// same line (the terminal's Summary, the report's cards) the rows not sent (SKIPPED, EMPTY, a
// subfolder not entered). A teacher read "Summary: 9 of 9 answers marked" of a class of 13.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderSummary, summarize } from '../../../src/cli/render/summary.js';
import { pageStart } from '../../../src/cli/report/html.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

const STATUSES = ['SUCCESS', 'FAILURE', 'CANCEL', 'NOT_SENT', 'SKIPPED', 'EMPTY', 'NOT_ENTERED'] as const;
const outcome = (status: string) =>
  (status === 'SUCCESS'
    ? { status, score: 12, maxScore: 20, evaluation: [{ item: 'Thesis', score: 3, max_score: 5, feedback: 'ok' }] }
    : { status }) as never;
const info = { title: 'Class', generated: new Date(0), version: '0.0.0' };

describe('the rows not sent, beside the answers', () => {
  it('says "9 of 9 answers marked, 4 rows not sent" of 9 marked and 4 skipped, and the report has a "Not sent" card', () => {
    const summary = summarize([...Array(9).fill('SUCCESS'), ...Array(4).fill('SKIPPED')].map(outcome));
    expect(renderSummary(summary, { unicode: false })[0]).toBe('Summary: 9 of 9 answers marked, 4 rows not sent');
    const page = pageStart(info, summary, 4);
    expect(page).toMatch(/<span class="k">Not sent<\/span><span class="v">4<\/span>/);
    expect(page).toMatch(/<span class="k">Not marked<\/span><span class="v">0<\/span>/);
  });

  it(`accounts in its first line for every row, whatever their statuses (seed ${propertySeed(4411)})`, () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...STATUSES), { minLength: 1, maxLength: 40 }), (statuses) => {
        const summary = summarize(statuses.map(outcome));
        const line = renderSummary(summary, { unicode: false })[0];
        const answers = Number(/of (\d+) answers? marked/.exec(line)?.[1]);
        const unsent = Number(/(\d+) rows? not sent/.exec(line)?.[1] ?? 0);
        expect(answers + unsent, line).toBe(statuses.length);
        const page = pageStart(info, summary, 0);
        expect(page.includes('<span class="k">Not sent</span>'), line).toBe(unsent > 0);
      }),
      { numRuns: propertyRuns(200), seed: propertySeed(4411) },
    );
  });

  it('a file reached twice was marked (once): it is "found twice", never "not sent"', () => {
    const summary = summarize([outcome('SUCCESS')]);
    const lines = renderSummary(summary, { unicode: false, leftOut: { duplicates: 1, loops: 1 } as never });
    expect(lines[0]).toBe('Summary: 1 of 1 answer marked');
    expect(lines.join('\n')).not.toContain('Not sent');
    expect(lines).toContain('Found twice: 1 file reached twice (marked once), 1 folder reached again through a link (walked once)');
  });

  it('says credits charged "so far" when answers were not seen finished (a server gone mid-run), not a firm 0', () => {
    const summary = { ...summarize(['SUCCESS', 'NOT_SENT', 'QUEUED', 'ERROR'].map(outcome)), creditsCharged: 1 };
    expect(renderSummary(summary, { unicode: false })).toContain(
      'Credits: 1 charged by this run so far (2 not seen finished may still be)',
    );
    // an answer the service never accepted cannot be charged: no "so far" for it
    const refused = { ...summarize(['SUCCESS', 'NOT_SENT', 'NOT_SENT'].map(outcome)), creditsCharged: 1 };
    expect(renderSummary(refused, { unicode: false })).toContain('Credits: 1 charged by this run');
    expect(renderSummary(refused, { unicode: false }).join('\n')).not.toContain('so far');
    // nor one marked before (its task an earlier run's), which a server gone leaves unfollowed
    const earlier = { ...summarize([{ status: 'ERROR', replayed: true }, { status: 'ERROR' }] as never[]), creditsCharged: 0 };
    expect(renderSummary(earlier, { unicode: false })).toContain(
      'Credits: 0 charged by this run so far (1 not seen finished may still be)',
    );
    const done = { ...summarize(['SUCCESS', 'SUCCESS'].map(outcome)), creditsCharged: 2 };
    expect(renderSummary(done, { unicode: false })).toContain('Credits: 2 charged by this run');
  });
});
