// kct batch's note of the items it reuses names the earlier tasks in the grammar of their number
// ("kct lists the task that hold them" was said of one task holding three items).
import { describe, expect, it } from 'vitest';
import { type EarlierTask, type Reuse, reuseNotes } from '../../../src/commands/batch/reuse.js';
import type { Marked } from '../../../src/run/ledger.js';

const earlierTask = (taskId: string, items: number): EarlierTask => ({
  taskId,
  batch: true,
  places: Array.from({ length: items }, (_, i) => ({ at: i, item: i, marked: { batchId: taskId, item: i } as Marked })),
  task: { task_id: taskId },
});
const reuse = (earlier: EarlierTask[]): Reuse => ({ earlier, rows: [], send: [], failedIn: new Map() });

describe('reuseNotes', () => {
  it.each([
    [[earlierTask('tsk_a', 3)], 'kct lists the task that holds them'],
    [[earlierTask('tsk_a', 1)], 'kct lists the task that holds it'],
    [[earlierTask('tsk_a', 2), earlierTask('tsk_b', 1)], 'kct lists the tasks that hold them'],
  ])('--no-wait names the earlier tasks in their number (%#)', (earlier, words) => {
    const [line] = reuseNotes(reuse(earlier), 5, false);
    expect(line).toContain(words);
  });
});
