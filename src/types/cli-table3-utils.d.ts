// cli-table3 ships no types for its helpers; kct uses one: the width it gives a cell.
declare module 'cli-table3/src/utils.js' {
  export function strlen(text: string): number;
}
