// The one way kct asks a person something: a line on stderr (stdout holds results), answered on a
// terminal. Callers check io.noPrompt first and throw cannotAsk's error. Ctrl-C, Ctrl-D or
// the run's signal at a prompt is an InterruptedError that says nothing was done.
// Built on node:readline (its public API): the five prompts kct needs do not earn a prompt
// library's packages in an install held to 60 (docs/benchmarks.md, "Install").
import { emitKeypressEvents } from 'node:readline';
import { createInterface } from 'node:readline/promises';
import { InterruptedError, UsageError } from '../../api/errors.js';
import type { Context } from './context.js';
import type { IO } from './io.js';

/**
 * What a command throws when it would ask and has no terminal (io.noPrompt): bad usage, exit 2
 * (docs/guides/exit-codes.md), whatever it asks for (a key, a password, a yes). `cannot` says what
 * was not asked; the suggestion names the flag or variable that answers instead.
 */
export function cannotAsk(io: IO, cannot: string, suggestion: string): UsageError {
  return new UsageError(`${cannot}: ${io.noPromptReason ?? 'no terminal to ask on'}`, { suggestion });
}

interface Choice<T> {
  value: T;
  label: string;
}

/** A choice's name: its label up to a colon ("sum" of "sum: criterion scores are added"). */
const nameOf = (choice: Choice<unknown>): string => choice.label.split(':')[0].trim();

export interface Prompts {
  /** Hidden input (a key, a password): each character shows as *, never itself. */
  secret(message: string): Promise<string>;
  confirm(message: string, initial: boolean): Promise<boolean>;
  /** Text that may not be left empty. */
  text(message: string): Promise<string>;
  /** A number of at least `min`. */
  number(message: string, min: number): Promise<number>;
  /** One of the choices, by its number (Enter takes the first). */
  select<T>(message: string, choices: Choice<T>[]): Promise<T>;
}

type Input = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

/** The prompts of this run: they read the context's stdin, write to its stderr and stop with its signal. */
export async function prompts(context: Pick<Context, 'io' | 'signal'>, cancelled = 'cancelled; nothing was done'): Promise<Prompts> {
  const input = context.io.stdin as Input;
  const output = context.io.stderr;
  const stop = () => new InterruptedError(cancelled);

  /** One line typed in answer, asked again until `accept` takes it. */
  const line = async <T>(question: string, accept: (answer: string) => T | undefined, again: string): Promise<T> => {
    const rl = createInterface({ input, output, terminal: input.isTTY === true });
    let closed = () => {};
    const interrupted = new Promise<never>((_, reject) => {
      closed = () => reject(stop());
      rl.once('SIGINT', () => reject(stop()));
      rl.once('close', closed);
    });
    try {
      for (;;) {
        const answer = await Promise.race([rl.question(question, { signal: context.signal }), interrupted]).catch((error: unknown) => {
          throw error instanceof InterruptedError ? error : stop();
        });
        const taken = accept(answer.trim());
        if (taken !== undefined) return taken;
        output.write(`${again}\n`);
      }
    } finally {
      // only this prompt's listener: readline's own unhooks it from the terminal, or every later prompt echoes once more
      rl.off('close', closed);
      rl.close();
    }
  };

  return {
    secret: (message) => secretLine(input, output, `${message} `, context.signal, stop),
    confirm: (message, initial) =>
      line(
        `${message} ${initial ? '(Y/n)' : '(y/N)'} `,
        (answer) => {
          if (answer === '') return initial;
          if (/^y(es)?$/i.test(answer)) return true;
          return /^no?$/i.test(answer) ? false : undefined;
        },
        'Answer y or n.',
      ),
    text: (message) => line(`${message} `, (answer) => (answer === '' ? undefined : answer), 'This cannot be empty.'),
    number: (message, min) =>
      line(
        `${message} `,
        (answer) => {
          const number = Number(answer);
          return answer !== '' && Number.isFinite(number) && number >= min ? number : undefined;
        },
        `Give a number of at least ${min}.`,
      ),
    select: (message, choices) => {
      output.write(`${message}\n${choices.map((choice, index) => `  ${index + 1}. ${choice.label}`).join('\n')}\n`);
      return line(
        `Choose 1 to ${choices.length} (Enter: 1): `,
        (answer) => {
          if (answer === '') return choices[0].value;
          const index = Number(answer);
          if (Number.isInteger(index) && index >= 1 && index <= choices.length) return choices[index - 1].value;
          // the choice's name, as its label starts ("sum: criterion scores are added"), is as good as its number
          return choices.find((choice) => nameOf(choice).toLowerCase() === answer.toLowerCase())?.value;
        },
        `Type a number from 1 to ${choices.length}, or its name (${choices.map(nameOf).join(', ')}).`,
      );
    },
  };
}

/** A line typed with the terminal in raw mode, shown as * (readline has no masked input). */
function secretLine(
  input: Input,
  output: NodeJS.WritableStream,
  question: string,
  signal: AbortSignal,
  stop: () => InterruptedError,
): Promise<string> {
  // raw before the question shows: a key typed at once must not be echoed by the terminal
  emitKeypressEvents(input);
  const wasRaw = (input as { isRaw?: boolean }).isRaw === true;
  input.setRawMode?.(true);
  input.resume();
  output.write(question);
  return new Promise<string>((resolve, reject) => {
    let typed = '';
    const finish = (outcome: () => void) => {
      input.off('keypress', onKey);
      signal.removeEventListener('abort', onAbort);
      input.setRawMode?.(wasRaw);
      input.pause();
      output.write('\n');
      outcome();
    };
    const onAbort = () => finish(() => reject(stop()));
    const onKey = (text: string | undefined, key: { name?: string; ctrl?: boolean; meta?: boolean } = {}) => {
      if (key.ctrl && (key.name === 'c' || (key.name === 'd' && typed === ''))) return finish(() => reject(stop()));
      if (key.name === 'return' || key.name === 'enter') return finish(() => resolve(typed));
      if (key.name === 'backspace') {
        if (typed.length > 0) {
          typed = [...typed].slice(0, -1).join('');
          output.write('\b \b');
        }
        return;
      }
      if (text && !key.ctrl && !key.meta && !/[\x00-\x1f\x7f]/.test(text)) {
        typed += text;
        output.write('*'.repeat([...text].length));
      }
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    input.on('keypress', onKey);
  });
}
