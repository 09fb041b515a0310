// Inline marks run one per turn of the event loop (src/sandbox/engines/one-per-turn.ts), so
// whatever else is due (a request read, a timer) gets its turn between two of them.
import { expect, test } from 'vitest';
import { OnePerTurn } from '../../packages/sandbox/src/engines/one-per-turn.js';

test('three queued functions run in three turns, with other work of each turn in between', async () => {
  const order: string[] = [];
  const queue = new OnePerTurn();
  const done = Promise.all(
    ['a', 'b', 'c'].map((name) =>
      queue.run(() => {
        order.push(name);
        return name;
      }),
    ),
  );
  // due in the first turn, after a; the y it queues is due in the second turn, after b
  setImmediate(() => {
    order.push('x');
    setImmediate(() => order.push('y'));
  });
  expect(await done).toEqual(['a', 'b', 'c']);
  expect(order).toEqual(['a', 'x', 'b', 'y', 'c']);
});

test('a function that throws rejects its own promise only', async () => {
  const queue = new OnePerTurn();
  const results = await Promise.allSettled([
    queue.run(() => {
      throw new Error('no');
    }),
    queue.run(() => 2),
  ]);
  expect(results).toEqual([
    { status: 'rejected', reason: new Error('no') },
    { status: 'fulfilled', value: 2 },
  ]);
});
