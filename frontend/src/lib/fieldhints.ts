// The limits of a field in words, shown under it before anyone types, so a
// person knows what will be accepted (lengths, ranges, formats, counts).

import type { FieldView } from './api';

/** At most this many options are shown as radio buttons; more use a list box. */
export const maxRadioOptions = 5;

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : String(+n.toFixed(6));
}

function range(min: number | undefined, max: number | undefined, unit: (n: number) => string): string {
  if (min != null && max != null) return min === max ? `Exactly ${unit(min)}.` : `${num(min)} to ${unit(max)}.`;
  if (min != null) return `At least ${unit(min)}.`;
  if (max != null) return `At most ${unit(max)}.`;
  return '';
}

const plural = (word: string) => (n: number) => `${num(n)} ${word}${n === 1 ? '' : 's'}`;

/** A short sentence about what the field accepts, or "" when anything goes. */
export function limitsHint(f: FieldView): string {
  const parts: string[] = [];
  switch (f.kind) {
    case 'text':
      parts.push(range(f.minLength, f.maxLength, plural('character')));
      if (f.pattern) parts.push(`Must match the pattern ${f.pattern}`);
      break;
    case 'email':
      parts.push('An email address, like name@example.com.');
      break;
    case 'uri':
      parts.push('A full web address, like https://example.com/page.');
      break;
    case 'date':
      parts.push('A date.');
      break;
    case 'date-time':
      parts.push('A date and time in your time zone.');
      break;
    case 'integer':
      parts.push(range(f.minimum, f.maximum, num) || 'A whole number.');
      break;
    case 'number':
      parts.push(range(f.minimum, f.maximum, num));
      break;
    case 'multi-select':
      parts.push(range(f.minItems, f.maxItems, (n) => `${num(n)} choice${n === 1 ? '' : 's'}`).replace(/^(\d)/, 'Choose $1'));
      break;
  }
  return parts.filter(Boolean).join(' ');
}
