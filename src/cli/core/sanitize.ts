// Server text (feedback, messages, ids) is untrusted: a crafted string could move the cursor,
// clear the screen, set the window title or write the clipboard. Everything kct prints to a
// terminal passes through `terminalSafe` (in io.ts `out`/`err`), so no call site can forget.

// CSI/OSC/DCS/other ESC sequences, then remaining C0/C1 controls except tab and newline.
const ESCAPES = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b\[[0-?]*[ -/]*[@-~]|\u001b[PX^_][^\u001b]*\u001b\\|\u001b[@-Z\\-_]/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Select Graphic Rendition (colour, bold): harmless, and how kct's own colours are written. */
const SGR = /(\u001b\[[0-9;]*m)/;

/** Removes every control sequence and control character (tab and newline stay). */
export function stripControls(text: string): string {
  return text.replace(ESCAPES, '').replace(/\r\n/g, '\n').replace(CONTROLS, '');
}

/** Like stripControls, but keeps colour sequences (SGR): for whole lines that kct itself styled. */
export function terminalSafe(text: string): string {
  // split() with a capturing group keeps the SGR sequences at the odd indexes
  return text
    .split(SGR)
    .map((part, index) => (index % 2 === 1 ? part : stripControls(part)))
    .join('');
}
