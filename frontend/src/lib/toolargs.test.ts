import { describe, expect, it } from 'vitest';
import { field } from '../test/fixtures';
import { buildArgs, initialState, localToRFC3339, parseArgsJSON, rfc3339ToLocal } from './toolargs';
import type { FieldView } from './api';

function build(fields: FieldView[], values: Record<string, unknown>, touched: Record<string, boolean> = {}) {
  const st = initialState(fields);
  Object.assign(st.values, values);
  Object.assign(st.touched, touched);
  return buildArgs(fields, st);
}

describe('buildArgs', () => {
  const cases: {
    name: string;
    fields: FieldView[];
    values: Record<string, unknown>;
    touched?: Record<string, boolean>;
    args: Record<string, unknown>;
    errors?: Record<string, string>;
  }[] = [
    { name: 'text stays text', fields: [field('s', 'text')], values: { s: 'hi' }, args: { s: 'hi' } },
    { name: 'empty optional fields are left out', fields: [field('s', 'text'), field('n', 'number')], values: {}, args: {} },
    {
      name: 'an empty required field is reported',
      fields: [field('s', 'text', { required: true })],
      values: {},
      args: {},
      errors: { s: 'This is required.' },
    },
    { name: 'integers are numbers', fields: [field('n', 'integer')], values: { n: '42' }, args: { n: 42 } },
    { name: 'numbers keep fractions', fields: [field('x', 'number')], values: { x: '-1.5' }, args: { x: -1.5 } },
    {
      name: 'a fraction is not an integer',
      fields: [field('n', 'integer')],
      values: { n: '1.5' },
      args: {},
      errors: { n: 'Enter a whole number.' },
    },
    {
      name: 'minimum and maximum',
      fields: [field('a', 'number', { minimum: 1 }), field('b', 'integer', { maximum: 3 })],
      values: { a: '0', b: '4' },
      args: { a: 0, b: 4 },
      errors: { a: 'Enter 1 or more.', b: 'Enter 3 or less.' },
    },
    { name: 'a required boolean is always sent', fields: [field('b', 'boolean', { required: true })], values: {}, args: { b: false } },
    { name: 'an untouched optional boolean is not sent', fields: [field('b', 'boolean')], values: {}, args: {} },
    { name: 'a touched boolean is sent', fields: [field('b', 'boolean')], values: { b: true }, touched: { b: true }, args: { b: true } },
    { name: 'a boolean default is sent', fields: [field('b', 'boolean', { default: true })], values: {}, args: { b: true } },
    {
      name: 'multi-select is an array',
      fields: [field('m', 'multi-select', { options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }] })],
      values: { m: ['a', 'b'] },
      args: { m: ['a', 'b'] },
    },
    {
      name: 'multi-select minItems',
      fields: [field('m', 'multi-select', { minItems: 2 })],
      values: { m: ['a'] },
      args: { m: ['a'] },
      errors: { m: 'Choose at least 2.' },
    },
    { name: 'single-select is the chosen value', fields: [field('c', 'single-select')], values: { c: 'red' }, args: { c: 'red' } },
    { name: 'json fields are parsed', fields: [field('j', 'json')], values: { j: '{"a":[1,true]}' }, args: { j: { a: [1, true] } } },
    { name: 'bad json is reported', fields: [field('j', 'json')], values: { j: '{' }, args: {}, errors: { j: expect.stringMatching(/^This is not valid JSON/) as unknown as string } },
    { name: 'dates stay as written', fields: [field('d', 'date')], values: { d: '2026-11-22' }, args: { d: '2026-11-22' } },
    {
      name: 'length limits',
      fields: [field('s', 'text', { minLength: 3 }), field('t', 'text', { maxLength: 1 })],
      values: { s: 'ab', t: 'xy' },
      args: { s: 'ab', t: 'xy' },
      errors: { s: 'Enter at least 3 characters.', t: 'Enter at most 1 character.' },
    },
    {
      name: 'patterns',
      fields: [field('p', 'text', { pattern: '^[a-z]+$' })],
      values: { p: 'ABC' },
      args: { p: 'ABC' },
      errors: { p: 'This does not match the expected format (^[a-z]+$).' },
    },
  ];
  it.each(cases)('$name', ({ fields, values, touched, args, errors }) => {
    const got = build(fields, values, touched);
    expect(got.args).toEqual(args);
    expect(got.errors).toEqual(errors ?? {});
  });

  it('starts from the schema defaults', () => {
    const fields = [
      field('s', 'text', { default: 'x' }),
      field('n', 'integer', { default: 3 }),
      field('m', 'multi-select', { default: ['a'] }),
      field('j', 'json', { default: { k: 1 } }),
    ];
    expect(buildArgs(fields, initialState(fields)).args).toEqual({ s: 'x', n: 3, m: ['a'], j: { k: 1 } });
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

describe('parseArgsJSON', () => {
  it.each([
    ['an object', '{"a": 1}', '{"a":1}', ''],
    ['empty means no arguments', '  ', '{}', ''],
    ['an array is refused', '[1]', '', 'The arguments must be a JSON object, like {"name": "value"}.'],
  ])('%s', (_, text, json, error) => {
    expect(parseArgsJSON(text)).toEqual({ json, error });
  });
  it('explains a syntax error', () => {
    expect(parseArgsJSON('{').error).toMatch(/^This is not valid JSON/);
  });
});
