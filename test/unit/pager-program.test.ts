// The pager command runs through the shell; its program is looked for first, so a pager that is
// not there never takes the output with it. Which word is the program:
import { describe, expect, it } from 'vitest';
import { choosePager, programOf } from '../../src/cli/core/pager.js';

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

// Which pager command is run, from the environment.
describe('pager choice', () => {
  it('KCT_PAGER, then PAGER, then less -FRX; "" and cat mean none', () => {
    const TERM = 'xterm-256color';
    expect(choosePager({ TERM, KCT_PAGER: 'most', PAGER: 'more' })).toEqual({ command: 'most', source: 'KCT_PAGER' });
    expect(choosePager({ TERM, PAGER: 'more -s' })).toEqual({ command: 'more -s', source: 'PAGER' });
    expect(choosePager({ TERM })).toEqual({ command: 'less -FRX', source: 'default' });
    expect(choosePager({ TERM, KCT_PAGER: '', PAGER: 'more' })).toBeUndefined();
    expect(choosePager({ TERM, PAGER: 'cat' })).toBeUndefined();
  });

  it('a dumb terminal (TERM=dumb, or no TERM off Windows) runs only the pager named in KCT_PAGER, as git runs only the editor named', () => {
    // less there stops at "Press RETURN to continue" (walk h8, defect 10)
    expect(choosePager({ TERM: 'dumb' }, 'linux')).toBeUndefined();
    expect(choosePager({ TERM: 'dumb', PAGER: 'less' }, 'linux')).toBeUndefined();
    expect(choosePager({}, 'darwin')).toBeUndefined();
    expect(choosePager({ TERM: 'dumb', KCT_PAGER: 'cat -n' }, 'linux')).toEqual({ command: 'cat -n', source: 'KCT_PAGER' });
    expect(choosePager({}, 'win32')).toEqual({ command: 'less -FRX', source: 'default' });
  });
});
