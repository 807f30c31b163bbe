// Server text must not hide or reorder words (E16).
import { describe, expect, it } from 'vitest';
import { hasHidden, segments, visibleText } from './visible';

describe('segments', () => {
  it.each([
    ['plain text stays one run', 'Hello, world', [{ text: 'Hello, world' }]],
    ['newlines and tabs are text', 'a\n\tb', [{ text: 'a\n\tb' }]],
    [
      'a right-to-left override is named',
      'invoice\u202Efdp.exe',
      [{ text: 'invoice' }, { text: 'U+202E', hidden: 'visible.char.202E' }, { text: 'fdp.exe' }],
    ],
    [
      'zero-width characters are named',
      'pay\u200Bpal\uFEFF',
      [
        { text: 'pay' },
        { text: 'U+200B', hidden: 'visible.char.200B' },
        { text: 'pal' },
        { text: 'U+FEFF', hidden: 'visible.char.FEFF' },
      ],
    ],
    ['isolates are named', '\u2067x\u2069', [
      { text: 'U+2067', hidden: 'visible.char.2067' },
      { text: 'x' },
      { text: 'U+2069', hidden: 'visible.char.2069' },
    ]],
    ['other control characters are marked', 'a\u0007b', [
      { text: 'a' },
      { text: 'U+0007', hidden: 'visible.char.other' },
      { text: 'b' },
    ]],
    ['Chinese and emoji are text', '请输入城市 🌆', [{ text: '请输入城市 🌆' }]],
  ])('%s', (_name, input, want) => {
    expect(segments(input)).toEqual(want);
  });
});

describe('visibleText', () => {
  it('shows each invisible character as its code', () => {
    expect(visibleText('a\u202Eb\u200Dc')).toBe('a⟨U+202E⟩b⟨U+200D⟩c');
    expect(hasHidden('a\u202Eb')).toBe(true);
    expect(hasHidden('<img src=x onerror=alert(1)>')).toBe(false);
  });
});
