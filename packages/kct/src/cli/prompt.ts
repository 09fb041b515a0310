// The one way kct asks a person something, on stderr (stdout holds results), through @clack/prompts.
// Only on a terminal: callers check io.noPrompt first and say which flag answers instead. Ctrl-C
// or Escape at a prompt is an InterruptedError that says nothing was done.
import { InterruptedError } from '../api/errors.js';
import type { Context } from './context.js';

type Clack = typeof import('@clack/prompts');

export interface Choice<T> {
  value: T;
  label: string;
  hint?: string;
}

export interface Prompts {
  /** Hidden input (a key, a password): masked as it is typed, never echoed. */
  secret(message: string): Promise<string>;
  confirm(message: string, initial: boolean): Promise<boolean>;
  /** Text that may not be left empty. */
  text(message: string): Promise<string>;
  /** A number of at least `min`. */
  number(message: string, min: number): Promise<number>;
  select<T>(message: string, choices: Choice<T>[]): Promise<T>;
}

/** The prompts of this run: they read the context's stdin, write to its stderr and stop with its signal. */
export async function prompts(context: Pick<Context, 'io' | 'signal'>, cancelled = 'cancelled; nothing was done'): Promise<Prompts> {
  const clack: Clack = await import('@clack/prompts');
  const common = { input: context.io.stdin, output: context.io.stderr, signal: context.signal };
  const answer = async <T>(asked: Promise<unknown>): Promise<T> => {
    const value = await asked;
    if (clack.isCancel(value)) throw new InterruptedError(cancelled);
    return value as T;
  };
  return {
    secret: (message) => answer<string>(clack.password({ ...common, message, validate: (value) => (value?.trim() ? undefined : 'Type it, or press Ctrl-C to stop.') })),
    confirm: (message, initial) => answer<boolean>(clack.confirm({ ...common, message, initialValue: initial })),
    text: (message) => answer<string>(clack.text({ ...common, message, validate: (value) => (value?.trim() ? undefined : 'This cannot be empty.') })),
    number: async (message, min) => Number(await answer<string>(clack.text({
      ...common,
      message,
      validate: (value) => {
        const number = Number(value?.trim());
        return value?.trim() && Number.isFinite(number) && number >= min ? undefined : `Give a number of at least ${min}.`;
      },
    }))),
    select: <T>(message: string, choices: Choice<T>[]) => answer<T>(clack.select({ ...common, message, options: choices as never })),
  };
}
