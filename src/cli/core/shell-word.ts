// A value put in a command kct suggests, quoted for a POSIX shell when it needs it, so that the
// line can be pasted as it is: `kct keys revoke 7 --account 'Ms Lee' --yes`.

export function shellWord(value: string): string {
  return /^[\w./@:=+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
