import { describe, expect, test } from 'vitest';
import { QueuePlaces } from '../../packages/sandbox/src/store/queue-places.js';

/** The count the index replaces: waiting seqs up to `seq`, and all of them. */
function counted(waiting: Set<number>, seq: number) {
  let position = 0;
  for (const s of waiting) if (s <= seq) position += 1;
  return { position, length: waiting.size };
}

describe('QueuePlaces (the queue positions of GET /status)', () => {
  test('places follow joins, departures out of order, and a queue that empties and refills', () => {
    const places = new QueuePlaces([10, 11, 12, 13]);
    expect(places.place(12)).toEqual({ position: 3, length: 4 });
    places.remove(11); // cancelled in the middle
    expect(places.place(12)).toEqual({ position: 2, length: 3 });
    expect(places.place(10)).toEqual({ position: 1, length: 3 });
    places.remove(11); // twice: no-op
    places.add(13); // again: no-op
    expect(places.length).toBe(3);
    for (const seq of [10, 12, 13]) places.remove(seq);
    expect(places.length).toBe(0);
    places.add(5000); // empty: starts afresh there
    expect(places.place(5000)).toEqual({ position: 1, length: 1 });
    expect(places.has(10)).toBe(false);
  });

  test('agrees with counting over the queue through 20,000 random joins and departures, seqs growing past many resizes', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const places = new QueuePlaces();
    const waiting = new Set<number>();
    let next = 1;
    for (let step = 0; step < 20_000; step++) {
      const r = random();
      if (r < 0.55 || waiting.size === 0) {
        places.add(next);
        waiting.add(next);
        next += 1 + Math.floor(random() * 3); // batch parents and other kinds leave holes in seq
      } else if (r < 0.9) {
        const head = Math.min(...waiting); // a worker takes the oldest
        places.remove(head);
        waiting.delete(head);
      } else {
        const any = [...waiting][Math.floor(random() * waiting.size)]!; // a cancellation anywhere
        places.remove(any);
        waiting.delete(any);
      }
      if (step % 97 === 0 && waiting.size > 0) {
        for (const seq of [...waiting].slice(0, 5)) expect(places.place(seq)).toEqual(counted(waiting, seq));
      }
    }
    expect(places.length).toBe(waiting.size);
    for (const seq of waiting) expect(places.place(seq)).toEqual(counted(waiting, seq));
  });
});
