// The pager command runs through the shell; its program is looked for first, so a pager that is
// not there never takes the output with it. Which word is the program:
import { describe, expect, it } from 'vitest';
import { programOf } from '../../packages/kct/src/cli/core/pager.js';

describe('the program of a pager command', () => {
  it.each([
    ['less -FRX', 'less'],
    ['  most', 'most'],
    ['"/opt/my pager/less" -R', '/opt/my pager/less'],
    ["'/x y/most' -s", '/x y/most'],
    ['$HOME/bin/less', undefined],
    ['less|cat', undefined],
    ['bat --paging=always', 'bat'],
  ])('%j runs %j', (command, program) => {
    expect(programOf(command)).toBe(program);
  });
});
