import { describe, expect, it } from 'vitest';
import { latest, newestVersion } from './latest';

describe('latest', () => {
  it('an ask stays the newest until another of its key starts', () => {
    const ask = latest();
    const first = ask();
    expect(first()).toBe(true);
    const second = ask();
    expect([first(), second()]).toEqual([false, true]);
  });

  it('keys are apart: a newer ask of one key leaves another key’s alone', () => {
    const ask = latest();
    const a = ask('a');
    const b = ask('b');
    ask('a');
    expect([a(), b()]).toEqual([false, true]);
  });
});

describe('newestVersion', () => {
  it.each([
    ['in order', [1, 2, 3], [true, true, true]],
    ['an older one late', [2, 1, 3], [true, false, true]],
    ['the same one twice', [4, 4], [true, false]],
  ])('%s', (_, versions, want) => {
    const newer = newestVersion();
    expect(versions.map((v) => newer(v))).toEqual(want);
  });
});
