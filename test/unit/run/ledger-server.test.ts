// One ledger per server, whatever the base URL calls it: a run against http://localhost:4312/v1 and
// one against http://127.0.0.1:4312/v1 reach the same sandbox, and used two ledgers, so answers
// relabelled between them were charged twice (a district operator found it). Property over spellings.
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ledger, serverOf } from '../../../src/run/ledger.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

const LOOPBACK = ['localhost', 'LOCALHOST', '127.0.0.1', '127.0.1.1', '[::1]'];

describe("the ledger's server", () => {
  it('is the same for localhost and 127.0.0.1, with or without a trailing slash', () => {
    expect(Ledger.pathOf('/state', 'http://localhost:4312/v1')).toBe(Ledger.pathOf('/state', 'http://127.0.0.1:4312/v1/'));
    expect(Ledger.pathOf('/state', 'http://localhost:4312/v1')).not.toBe(Ledger.pathOf('/state', 'http://localhost:4313/v1'));
    expect(Ledger.pathOf('/state', 'https://api.example.com/v1')).toBe(join('/state', Ledger.pathOf('', 'https://api.example.com/v1/')));
  });

  it(`folds every name of this machine, and only those (seed ${propertySeed(2727)})`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LOOPBACK),
        fc.constantFrom(...LOOPBACK),
        fc.integer({ min: 1, max: 65535 }),
        fc.constantFrom('', '/', '//'),
        fc.constantFrom('api.example.com', 'marking.school.org', '10.0.0.5'),
        (a, b, port, slash, remote) => {
          expect(serverOf(`http://${a}:${port}/v1${slash}`)).toBe(serverOf(`http://${b}:${port}/v1`));
          expect(serverOf(`http://${remote}:${port}/v1${slash}`)).not.toBe(serverOf(`http://${a}:${port}/v1`));
        },
      ),
      { numRuns: propertyRuns(200), seed: propertySeed(2727) },
    );
  });
});
