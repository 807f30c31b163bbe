// The dialog's values reach Go with the types the schema asks for (E15).
import { describe, expect, it } from 'vitest';
import { answerValues } from './answers';
import { initialState, localToRFC3339 } from './toolargs';
import { field } from '../test/fixtures';

describe('answerValues', () => {
  it('types every kind of field', () => {
    const fields = [
      field('name', 'text'),
      field('age', 'integer'),
      field('score', 'number'),
      field('ok', 'boolean', { required: true }),
      field('opt', 'boolean'),
      field('tags', 'multi-select'),
      field('when', 'date-time'),
      field('day', 'date'),
    ];
    const st = initialState(fields);
    Object.assign(st.values, {
      name: 'Ada',
      age: '42',
      score: ' 2.5 ',
      ok: true,
      tags: ['a', 'b'],
      when: '2026-01-31T14:30',
      day: '2026-01-31',
    });
    expect(answerValues(fields, st)).toEqual({
      name: 'Ada',
      age: 42,
      score: 2.5,
      ok: true,
      tags: ['a', 'b'],
      when: localToRFC3339('2026-01-31T14:30'),
      day: '2026-01-31',
    });
  });

  it('keeps a typo as text so Go can explain it', () => {
    const fields = [field('age', 'integer'), field('when', 'date-time')];
    const st = initialState(fields);
    st.values.age = 'forty';
    expect(answerValues(fields, st)).toEqual({ age: 'forty', when: '' });
  });

  it('sends an optional switch only once touched', () => {
    const fields = [field('opt', 'boolean')];
    const st = initialState(fields);
    expect(answerValues(fields, st)).toEqual({});
    st.touched.opt = true;
    expect(answerValues(fields, st)).toEqual({ opt: false });
  });

  it('starts from the defaults (E12)', () => {
    const fields = [
      field('n', 'integer', { default: 3 }),
      field('b', 'boolean', { default: true }),
      field('s', 'single-select', { default: 'x', options: [{ value: 'x', label: 'X' }] }),
    ];
    expect(answerValues(fields, initialState(fields))).toEqual({ n: 3, b: true, s: 'x' });
  });
});
