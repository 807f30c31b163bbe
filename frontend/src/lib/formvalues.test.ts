// A form's controls become typed values for Go to check (E15); Go, not
// this module, judges them.
import { describe, expect, it } from 'vitest';
import { field } from '../test/fixtures';
import { formValues, initialState, localToRFC3339, rfc3339ToLocal } from './formvalues';

describe('formValues', () => {
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
      field('meta', 'json'),
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
      meta: '{"a": [1, true]}',
    });
    expect(formValues(fields, st)).toEqual({
      name: 'Ada',
      age: 42,
      score: 2.5,
      ok: true,
      tags: ['a', 'b'],
      when: localToRFC3339('2026-01-31T14:30'),
      day: '2026-01-31',
      meta: '{"a": [1, true]}',
    });
  });

  it('keeps a typo as text so Go can explain it', () => {
    const fields = [field('age', 'integer'), field('when', 'date-time'), field('meta', 'json')];
    const st = initialState(fields);
    Object.assign(st.values, { age: 'forty', when: 'tomorrow', meta: '{' });
    expect(formValues(fields, st)).toEqual({ age: 'forty', when: 'tomorrow', meta: '{' });
  });

  it('sends empty fields empty: Go leaves them out or says they are required', () => {
    const fields = [field('s', 'text', { required: true }), field('n', 'number'), field('m', 'multi-select')];
    expect(formValues(fields, initialState(fields))).toEqual({ s: '', n: '', m: [] });
  });

  it('a switch sends what it shows: not answered is left out, off is false, its default as given (E14)', () => {
    const fields = [
      field('opt', 'boolean'),
      field('req', 'boolean', { required: true }),
      field('off', 'boolean', { default: false }),
    ];
    const st = initialState(fields);
    // Nobody answered the first two: they show "Not answered" and send nothing
    // (Go then says the required one wants on or off).
    expect(st.values).toEqual({ opt: '', req: '', off: false });
    expect(formValues(fields, st)).toEqual({ off: false });
    st.values.opt = false;
    st.values.req = true;
    expect(formValues(fields, st)).toEqual({ opt: false, req: true, off: false });
    // Cleared again: left out again.
    st.values.opt = '';
    expect(formValues(fields, st)).toEqual({ req: true, off: false });
  });

  it('starts from the defaults (E12)', () => {
    const fields = [
      field('n', 'integer', { default: 3 }),
      field('b', 'boolean', { default: true }),
      field('s', 'single-select', { default: 'x', options: [{ value: 'x', label: 'X' }] }),
      field('m', 'multi-select', { default: ['a'] }),
      field('j', 'json', { default: { k: 1 } }),
    ];
    expect(formValues(fields, initialState(fields))).toEqual({ n: 3, b: true, s: 'x', m: ['a'], j: '{\n  "k": 1\n}' });
  });
});

describe('date-time', () => {
  it('a local time gets the local offset and round-trips', () => {
    const t = localToRFC3339('2026-11-22T09:30');
    expect(t).toMatch(/^2026-11-22T09:30:00(Z|[+-]\d\d:\d\d)$/);
    expect(new Date(t!).getTime()).toBe(new Date('2026-11-22T09:30:00').getTime());
    expect(rfc3339ToLocal(t!)).toBe('2026-11-22T09:30:00');
  });
  it('rejects text that is not a time', () => {
    expect(localToRFC3339('tomorrow')).toBeNull();
  });
});
