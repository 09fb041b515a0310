import { describe, expect, it } from 'vitest';
import { stripControls } from '../../src/cli/core/sanitize.js';

const ESC = '\u001b';
const BEL = '\u0007';

describe('stripControls: escape sequences', () => {
  it('removes CSI colour codes', () => {
    expect(stripControls(`${ESC}[31mred${ESC}[0m and ${ESC}[1;38;5;208mbold orange${ESC}[m`)).toBe('red and bold orange');
  });

  it('removes cursor moves and screen clears', () => {
    expect(stripControls(`a${ESC}[2Jb${ESC}[Hc${ESC}[10;20Hd${ESC}[3Ae${ESC}[Kf${ESC}[?25lg`)).toBe('abcdefg');
  });

  it('removes an OSC title sequence ended by BEL', () => {
    expect(stripControls(`before${ESC}]0;pwned title${BEL}after`)).toBe('beforeafter');
  });

  it('removes an OSC sequence ended by ST (ESC \\)', () => {
    expect(stripControls(`x${ESC}]2;title${ESC}\\y`)).toBe('xy');
    expect(stripControls(`link: ${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`)).toBe('link: click');
  });

  it('removes DCS and other string sequences', () => {
    expect(stripControls(`a${ESC}P1$r0m${ESC}\\b`)).toBe('ab');
    expect(stripControls(`a${ESC}_private${ESC}\\b`)).toBe('ab');
  });

  it('removes two-character escapes such as ESC c (reset) and ESC M', () => {
    expect(stripControls(`a${ESC}Mb${ESC}7c`)).not.toContain(ESC);
    expect(stripControls(`a${ESC}Mb`)).toBe('ab');
  });

  it('removes a lone ESC', () => {
    expect(stripControls(`a${ESC}`)).toBe('a');
  });
});

describe('stripControls: control characters', () => {
  it('removes C0 controls other than tab and newline', () => {
    expect(stripControls('a\u0000b\u0007c\u0008d\u000be\u000cf\u007fg')).toBe('abcdefg');
  });

  it('removes a bare carriage return that could overwrite a line', () => {
    expect(stripControls('Score: 2\rScore: 10')).toBe('Score: 2Score: 10');
  });

  it('turns CRLF into LF', () => {
    expect(stripControls('one\r\ntwo\r\n')).toBe('one\ntwo\n');
  });

  it('removes C1 controls (U+0080 to U+009F)', () => {
    expect(stripControls('a\u0080b\u0085c\u009bd\u009de\u009f')).toBe('abcde');
  });

  it('keeps tabs, newlines and ordinary Unicode', () => {
    const text = 'Criterion\tScore\nArgument:\tgood — café, naïve, 日本語, emoji 🎓👍🏽, ZWJ 👩‍🔬';
    expect(stripControls(text)).toBe(text);
  });

  it('keeps text around escapes intact', () => {
    expect(stripControls(`café ${ESC}[32m🎓${ESC}[0m\tok\n`)).toBe('café 🎓\tok\n');
  });

  it('returns an empty string as it is', () => {
    expect(stripControls('')).toBe('');
  });
});
