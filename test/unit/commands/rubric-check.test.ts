// kct one-pass --rubric-file: the rubric is checked with the service's preview before marking. A
// service that previews fewer file types than it marks (spec 4.5 lists PDF and images) refuses the
// preview: the answer is still marked, with a note that the rubric was not checked. In-process,
// over undici's MockAgent (test/unit/cli/run-kct.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockApi, runKct, tempConfigDir } from '../cli/run-kct.js';

describe('the rubric check of one-pass', () => {
  it('a preview refused (HTTP 400): a note that the rubric was not checked, and the answer sent all the same', async () => {
    const dir = tempConfigDir();
    const rubric = join(dir, 'rubric.txt');
    writeFileSync(rubric, 'Evidence (6 marks)\nStructure (4 marks)\n');
    const api = mockApi();
    api.reply('POST', '/rubrics-ingest-preview', 400, {
      error: { code: 'unsupported_file', message: 'previews read PDF and images only' },
    });
    api.reply('POST', '/evaluations/one-pass', 202, { data: { task_id: 'tsk_0000000000000001', status: 'QUEUED' } });
    const run = await runKct(['one-pass', '--model', '12', '--text', 'An answer about tides.', '--rubric-file', rubric, '--no-wait'], {
      api,
      env: { KCT_STATE_DIR: join(dir, 'state') },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("note: the rubric was not checked: the service's preview refused it (previews read PDF and images only");
    expect(run.stdout).toContain('tsk_0000000000000001');
    api.assertAllCalled();
  });
});
