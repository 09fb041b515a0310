// The prompts on a terminal show what is typed once. A prompt that removed readline's own `close`
// listener left the interface hooked to the terminal, so each later prompt echoed every key once
// more than the last ("12", then "11", then "nnn"). Property (fast-check, seeded, shrinking;
// docs/testing.md) over generated sequences of prompts and answers, on a stream that says it is a TTY.
import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prompts } from '../../src/cli/core/prompt.js';
import { makeIO } from './memory-io.js';
import { propertyRuns, propertySeed } from './property-runs.js';

/** A terminal's input: raw mode asked for and noted, keys written by the test. */
function terminalInput(): PassThrough & { isTTY: boolean; isRaw: boolean; setRawMode: (raw: boolean) => void } {
  const input = new PassThrough() as PassThrough & { isTTY: boolean; isRaw: boolean; setRawMode: (raw: boolean) => void };
  input.isTTY = true;
  input.isRaw = false;
  input.setRawMode = (raw) => {
    input.isRaw = raw;
  };
  return input;
}

/** kct's prompts on a fake terminal: the keys typed go to `input`, and `shown()` is what stderr showed. */
async function terminalPrompts() {
  const { io, output } = makeIO();
  const input = terminalInput();
  const stderr = new PassThrough();
  let shown = '';
  stderr.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
  });
  const ask = await prompts({ io: { ...io, stdin: input, stderr, stdinIsTTY: true }, signal: new AbortController().signal });
  return { input, ask, output, shown: () => shown };
}

describe('prompts on a terminal', () => {
  it(`property: every answer typed shows once, however many prompts came before (seed ${propertySeed(5181)})`, async () => {
    const answer = fc.stringMatching(/^[a-z]{1,8}$/);
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 5 }), async (answers) => {
        const { input, ask, output, shown } = await terminalPrompts();
        for (const [i, typed] of answers.entries()) {
          const read = ask.text(`Question ${i + 1}?`);
          input.write(`${typed}\r`);
          expect(await read).toBe(typed);
        }
        const lines = stripVTControlCharacters(shown())
          .split(/\r?\n/)
          .filter((line) => line.startsWith('Question'));
        expect(lines).toEqual(answers.map((typed, i) => `Question ${i + 1}? ${typed}`));
        expect(output()).toBe('');
      }),
      { numRuns: propertyRuns(40), seed: propertySeed(5181) },
    );
  });

  it('a choice is taken by its number or by its name ("sum"); anything else is asked again, naming both', async () => {
    const { input, ask, shown } = await terminalPrompts();
    const choices = [
      { label: 'sum: criterion scores are added', value: 'sum' },
      { label: 'average: the average of the criteria', value: 'average' },
    ];
    const byName = ask.select('How?', choices);
    input.write('Average\r');
    expect(await byName).toBe('average');
    const again = ask.select('How?', choices);
    input.write('total\r');
    // the second line once it has been asked again
    while (!stripVTControlCharacters(shown()).includes('Type a number from 1 to 2')) await new Promise((resolve) => setTimeout(resolve, 5));
    input.write('1\r');
    expect(await again).toBe('sum');
    expect(stripVTControlCharacters(shown())).toContain('Type a number from 1 to 2, or its name (sum, average).');
  });
});
