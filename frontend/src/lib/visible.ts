// Server text as plain, honest text: characters that are invisible or that
// reorder what follows (bidi controls, zero-width characters, other format
// and control characters) are split out so the UI can show them as visible
// marks instead of letting them hide or rearrange words (E16).

/** A piece of server text: plain text, or one invisible character made visible. */
export type Segment = { text: string; hidden?: undefined } | { text: string; hidden: string };

const names: Record<number, string> = {
  0x00ad: 'soft hyphen',
  0x061c: 'Arabic letter mark',
  0x180e: 'Mongolian vowel separator',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0xfeff: 'zero-width no-break space',
};

// Format (Cf) and control (Cc) characters, line and paragraph separators;
// tab and newline are ordinary text.
const invisible = /[\p{Cf}\p{Cc}\u2028\u2029]/u;

/** "U+202E" for a code point. */
export function codeOf(ch: string): string {
  return 'U+' + (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
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
      out.push({ text: codeOf(ch), hidden: names[cp] ?? 'invisible character' });
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
