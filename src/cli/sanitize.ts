// Server text (feedback, messages) is untrusted: a crafted string could move the cursor, rewrite
// the screen or set the window title. Strip control sequences before printing to a terminal.

// CSI/OSC/other ESC sequences, then remaining C0/C1 controls except tab and newline.
const ESCAPES = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b\[[0-?]*[ -/]*[@-~]|\u001b[PX^_][^\u001b]*\u001b\\|\u001b[@-Z\\-_]/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function stripControls(text: string): string {
  return text.replace(ESCAPES, '').replace(/\r\n/g, '\n').replace(CONTROLS, '');
}
