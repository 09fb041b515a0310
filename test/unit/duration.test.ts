import { describe, expect, it } from 'vitest';
import { formatDuration, UsageError } from '../../src/api/errors.js';
import { parseDuration } from '../../src/cli/core/duration.js';

describe('parseDuration', () => {
  it.each([
    ['1500ms', 1500],
    ['3s', 3000],
    ['30m', 1_800_000],
    ['2h', 7_200_000],
    ['90', 90_000],
    ['0.5s', 500],
    ['1.5', 1500],
    ['1.5m', 90_000],
    [' 10 s ', 10_000],
    ['1ms', 1],
  ])('%j → %i ms', (text, ms) => {
    expect(parseDuration(text, '--timeout')).toBe(ms);
  });

  it('rounds to whole milliseconds', () => {
    expect(parseDuration('1.2345s', '--timeout')).toBe(1235);
  });

  it.each(['', 'abc', '5x', '5 min', '-5s', '1e3', 's', '5s5', '1,5s', '5S', 'Infinity'])('refuses %j', (text) => {
    expect(() => parseDuration(text, '--timeout')).toThrow(UsageError);
  });

  it('names the option and the text in the message', () => {
    try {
      parseDuration('soon', '--interval');
      throw new Error('expected a UsageError');
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe('--interval: "soon" is not a duration');
      expect((error as UsageError).suggestion).toContain('30m');
    }
  });

  it('refuses zero', () => {
    expect(() => parseDuration('0', '--timeout')).toThrow(/greater than zero/);
    expect(() => parseDuration('0s', '--timeout')).toThrow(UsageError);
    expect(() => parseDuration('0.0h', '--timeout')).toThrow(UsageError);
  });

  it('a duration that rounds to zero is refused', () => {
    expect(() => parseDuration('0.4ms', '--timeout')).toThrow(UsageError);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [999, '999 ms'],
    [1000, '1 s'],
    [90_000, '90 s'],
    [119_000, '119 s'],
    [120_000, '2 min'],
    [1_800_000, '30 min'],
    [7_200_000, '2 h'],
  ])('%i ms → %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
