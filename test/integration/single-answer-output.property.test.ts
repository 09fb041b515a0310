// One answer, one record on stdout, whatever happens to it: over generated causes (marked, a key
// refused, a model not found, no credits, a server not there) and machine formats, `kct one-pass
// essay.txt` prints exactly one record a script can read (a header and a row for CSV) and exits with
// the documented code, the row's status saying the same, whether this machine marked the answer
// before or not. A refused answer once printed nothing; one marked before, refused a wrong key,
// once claimed its earlier task with "replayed": true.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closedPort } from '../unit/closed-port.js';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

type Cause = 'marked' | 'bad key' | 'no model' | 'no credits' | 'no server';
const EXIT: Record<Cause, number> = { marked: 0, 'bad key': 4, 'no model': 6, 'no credits': 5, 'no server': 9 };

describe('one answer prints one record', () => {
  it('in csv, ndjson and json, with the exit code its status says', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Cause>('marked', 'bad key', 'no model', 'no credits', 'no server'),
        fc.constantFrom('csv' as const, 'ndjson' as const, 'json' as const),
        // marked on this machine before, with the user's own key: the ledger knows its task
        fc.boolean(),
        async (cause, format, before) => {
          const file = join(tempDir('kct-single-output-'), 'essay.txt');
          writeFileSync(file, `Uniforms should be optional because families pay too much (single ${runs++} ${Date.now()}).\n`);
          const keys = { ...shared.sandbox.keys };
          if (cause === 'bad key') keys.user = 'kct_sbx_deadbeefdeadbeefdeadbeefdeadbeef';
          if (cause === 'no credits') keys.user = keys.broke;
          const baseUrl = cause === 'no server' ? `http://127.0.0.1:${await closedPort()}/v1` : shared.sandbox.baseUrl;
          const config = tempDir('kct-single-output-cfg-');
          if (before && cause !== 'no server') {
            const first = await asUser(shared.sandbox, 'user', config)(['one-pass', file, '--model', '12', '--output', 'ndjson']);
            expect(first.code, first.stderr).toBe(0);
          }
          const kct = asUser({ baseUrl, keys }, 'user', config);
          const model = cause === 'no model' ? '99' : cause === 'no credits' ? '15' : '12';
          const run = await kct(['one-pass', file, '--model', model, ...(format === 'json' ? ['--json'] : ['--output', format])], {
            env: { KCT_MAX_RETRIES: '0', KCT_POLL_INTERVAL: '50ms' },
          });
          const context = `${cause} ${format}\n${run.stderr}\n${run.stdout}`;
          expect(run.code, context).toBe(EXIT[cause]);
          const records: { status?: string; task_id?: string | null; replayed?: boolean }[] =
            format === 'json'
              ? [JSON.parse(run.stdout)]
              : format === 'ndjson'
                ? run.stdout
                    .trim()
                    .split('\n')
                    .map((line) => JSON.parse(line))
                : parse(run.stdout, { columns: true });
          expect(records.length, context).toBe(1);
          const status = records[0].status;
          if (cause === 'marked') expect(status, context).toBe('SUCCESS');
          else expect(status, context).toBe('NOT_SENT');
          // a task marked before that this key may not see is not claimed: no task, no replay
          if (cause !== 'marked') expect(records[0].task_id ?? '', context).toBe('');
          if (cause !== 'marked') expect(records[0].replayed ?? '', context).toBe('');
        },
      ),
      {
        examples: [
          ['bad key', 'csv', false],
          ['no model', 'json', false],
          ['bad key', 'ndjson', true],
        ],
        numRuns: 6 + propertyRuns(6),
        seed: propertySeed(6060),
      },
    );
  }, 180_000);
});
