// What a failure may tell the person who sent the file: the reason written for them, never a
// library's internal words ("Maximum call stack size exceeded", "Cannot read properties of
// undefined") nor a stack or a server path. Applied wherever a reason leaves the sandbox: a task's
// comment and a preview's 400.

/** Errors of the JavaScript engine itself: their message says nothing a sender can act on. */
const ENGINE_ERRORS = new Set(['RangeError', 'TypeError', 'ReferenceError', 'SyntaxError', 'EvalError', 'InternalError', 'AggregateError']);

/** Words that only ever come from inside a program. */
const INTERNAL_WORDS =
  /maximum call stack|call stack size|cannot read propert|cannot set propert|is not a function|is not defined|is not iterable|undefined|null\b|out of memory|heap limit|allocation failed|invalid array length|invalid string length|\bERR_[A-Z_]+|\bE[A-Z]{3,}\b:|node_modules|\/(?:src|dist|home|tmp|usr|var)\/|\bat \S+ \(|\w+\.(?:js|ts|mjs|cjs):\d+/i;

/** The library's own words that errors.ts `reason()` appends, as it words them. */
function appendedReason(cause: { message: string }): string {
  const line = cause.message.split('\n')[0].trim();
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/**
 * The sender-facing form of an extraction failure's message. An engine error as the cause:
 * its words, which the message quotes in parentheses, are dropped and a hint takes their place.
 * Any internal word left: the whole message becomes the generic one.
 */
export function senderReason(message: string, cause?: { name: string; message: string }): string {
  let text = message;
  if (cause && (ENGINE_ERRORS.has(cause.name) || INTERNAL_WORDS.test(cause.message))) {
    text = text.replace(` (${appendedReason(cause)})`, '').replace(/\.?$/, '.');
    text += ' It may be damaged, or built in a way the sandbox cannot read: save it again, or send it as PDF or plain text.';
  }
  return INTERNAL_WORDS.test(text) ? GENERIC_UNREADABLE : text;
}

export const GENERIC_UNREADABLE =
  'The file could not be read: it may be damaged, or built in a way the sandbox cannot read. Save it again, or send it as PDF or plain text.';
