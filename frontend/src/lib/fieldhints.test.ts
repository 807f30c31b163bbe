import { describe, expect, it } from 'vitest';
import { limitsHint } from './fieldhints';
import { field } from '../test/fixtures';

describe('limitsHint', () => {
  it.each([
    ['text without limits', field('a', 'text'), ''],
    ['text length range', field('a', 'text', { minLength: 3, maxLength: 40 }), '3 to 40 characters.'],
    ['text minimum only', field('a', 'text', { minLength: 1 }), 'At least 1 character.'],
    ['text with pattern', field('a', 'text', { pattern: '^[A-Z]{3}$' }), 'Must match the pattern ^[A-Z]{3}$'],
    ['email', field('a', 'email'), 'An email address, like name@example.com.'],
    ['integer range', field('a', 'integer', { minimum: 1, maximum: 10 }), '1 to 10.'],
    ['integer without limits', field('a', 'integer'), 'A whole number.'],
    ['number maximum', field('a', 'number', { maximum: 2.5 }), 'At most 2.5.'],
    ['multi-select range', field('a', 'multi-select', { minItems: 1, maxItems: 3 }), 'Choose 1 to 3 choices.'],
    ['multi-select exact', field('a', 'multi-select', { minItems: 2, maxItems: 2 }), 'Exactly 2 choices.'],
    ['boolean', field('a', 'boolean'), ''],
  ])('%s', (_n, f, want) => {
    expect(limitsHint(f)).toBe(want);
  });
});
