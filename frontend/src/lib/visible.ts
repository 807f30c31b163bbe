// Server text as plain, honest text: characters that are invisible or that
// reorder what follows (bidi controls, zero-width characters, other format
// and control characters) are split out so the UI can show them as visible
// marks instead of letting them hide or rearrange words (E16).

import { t, type MessageKey } from './i18n.svelte';

/** A piece of server text: plain text, or one invisible character made visible (hidden: its name's key). */
export type Segment = { text: string; hidden?: undefined } | { text: string; hidden: string };

// The names of the characters, as catalogue keys (visible.char.XXXX).
const names: Record<number, MessageKey> = {
  0x00ad: 'visible.char.00AD',
  0x061c: 'visible.char.061C',
  0x180e: 'visible.char.180E',
  0x200b: 'visible.char.200B',
  0x200c: 'visible.char.200C',
  0x200d: 'visible.char.200D',
  0x200e: 'visible.char.200E',
  0x200f: 'visible.char.200F',
  0x2028: 'visible.char.2028',
  0x2029: 'visible.char.2029',
  0x202a: 'visible.char.202A',
  0x202b: 'visible.char.202B',
  0x202c: 'visible.char.202C',
  0x202d: 'visible.char.202D',
  0x202e: 'visible.char.202E',
  0x2060: 'visible.char.2060',
  0x2066: 'visible.char.2066',
  0x2067: 'visible.char.2067',
  0x2068: 'visible.char.2068',
  0x2069: 'visible.char.2069',
  0xfeff: 'visible.char.FEFF',
};

/** The name of an invisible character, for its mark's tooltip, in the window's language. */
export function hiddenName(name: MessageKey | string): string {
  return t('visible.hidden', { name: name in names || name.startsWith('visible.') ? t(name as MessageKey) : name });
}

// Format (Cf) and control (Cc) characters, line and paragraph separators;
// tab and newline are ordinary text.
const invisible = /[\p{Cf}\p{Cc}\u2028\u2029]/u;

/** "U+202E" for a code point. */
export function codeOf(ch: string): string {
  return 'U+' + (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}

/** The catalogue key of a hidden character's name from its code as Go writes it ("U+202E"). */
export function hiddenKeyOf(code: string): MessageKey {
  return names[parseInt(code.slice(2), 16)] ?? 'visible.char.other';
}

/** Splits text into plain runs and single invisible characters, each named. */
export function segments(text: string): Segment[] {
  const out: Segment[] = [];
  let run = '';
  for (const ch of text) {
    if (ch !== '\n' && ch !== '\t' && invisible.test(ch)) {
      if (run) out.push({ text: run });
      run = '';
      const cp = ch.codePointAt(0) ?? 0;
      out.push({ text: codeOf(ch), hidden: names[cp] ?? 'visible.char.other' });
    } else {
      run += ch;
    }
  }
  if (run) out.push({ text: run });
  return out;
}

/** True when the text holds a character that segments would make visible. */
export function hasHidden(text: string): boolean {
  return segments(text).some((s) => s.hidden !== undefined);
}

/** Text without invisible characters, with each shown as ⟨U+XXXX⟩: for labels and attributes. */
export function visibleText(text: string): string {
  return segments(text)
    .map((s) => (s.hidden !== undefined ? `⟨${s.text}⟩` : s.text))
    .join('');
}
