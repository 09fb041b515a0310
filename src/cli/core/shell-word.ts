// A value put in a command kct suggests, quoted for a POSIX shell when it needs it, so that the
// line can be pasted as it is: `kct keys revoke 7 --account 'Ms Lee' --yes`.

export function shellWord(value: string): string {
  return /^[\w./@:=+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command as it was typed (every flag kept: --save-as, --json, the profile), with the flags of
 * `add` it does not hold already: the line a hint says to run again (`… --yes`, `… --password-stdin`).
 */
export function commandAgain(args: readonly string[], add: [flag: string, value?: string][]): string {
  const words = [...args];
  for (const [flag, value] of add)
    if (!words.some((word) => word === flag || word.startsWith(`${flag}=`))) words.push(flag, ...(value === undefined ? [] : [value]));
  return ['kct', ...words].map(shellWord).join(' ');
}
