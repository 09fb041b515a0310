// Whether kct colours its output: it follows stdout being a terminal (not stderr), and NO_COLOR.
import { expect, it } from 'vitest';
import { colorAllowed } from '../../../src/cli/core/io.js';

it('colour follows stdout being a terminal, not stderr', () => {
  expect(colorAllowed({}, false, false)).toBe(false);
  expect(colorAllowed({}, false, true)).toBe(true);
  expect(colorAllowed({ NO_COLOR: '1' }, false, true)).toBe(false);
});
