// How a generated tool form's values become the JSON arguments of a call.
//
// Each field keeps its value as the form control holds it (text, a checkbox
// state, a list of chosen options); buildArgs turns them into typed JSON:
// numbers and integers as numbers, booleans as booleans, multi-selects as
// arrays, json fields parsed. Empty optional fields are left out.

import type { FieldView } from './api';

export type FieldValue = string | boolean | string[];

export interface FormState {
  values: Record<string, FieldValue>;
  /** Fields the person changed; an untouched optional checkbox is not sent. */
  touched: Record<string, boolean>;
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/** "2025-01-31T09:30" (a datetime-local value, local time) → RFC 3339 with the local offset. */
export function localToRFC3339(v: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/.exec(v);
  if (!m) return null;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return null;
  const off = -d.getTimezoneOffset();
  const zone = off === 0 ? 'Z' : `${off > 0 ? '+' : '-'}${pad(Math.trunc(off / 60))}:${pad(off % 60)}`;
  return `${m[1]}T${m[2]}:${m[3]}:${m[4] ?? '00'}${m[5] ?? ''}${zone}`;
}

/** An RFC 3339 time → a datetime-local value in local time ("" if unreadable). */
export function rfc3339ToLocal(v: string): string {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return '';
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
    `T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}

/** The value a field starts with: its schema default, or empty. */
export function initialValue(f: FieldView): FieldValue {
  const d = f.default;
  switch (f.kind) {
    case 'boolean':
      return d === true;
    case 'multi-select':
      return Array.isArray(d) ? d.map(String) : [];
    case 'json':
      return d === undefined ? '' : JSON.stringify(d, null, 2);
    case 'date-time':
      return typeof d === 'string' ? rfc3339ToLocal(d) : '';
    default:
      return d === undefined || d === null ? '' : String(d);
  }
}

export function initialState(fields: FieldView[]): FormState {
  const values: Record<string, FieldValue> = {};
  for (const f of fields) values[f.name] = initialValue(f);
  return { values, touched: {} };
}

function checkText(f: FieldView, v: string): string {
  const len = [...v].length;
  if (f.minLength != null && len < f.minLength) {
    return `Enter at least ${f.minLength} character${f.minLength === 1 ? '' : 's'}.`;
  }
  if (f.maxLength != null && len > f.maxLength) {
    return `Enter at most ${f.maxLength} character${f.maxLength === 1 ? '' : 's'}.`;
  }
  if (f.pattern) {
    let re: RegExp | null = null;
    try {
      re = new RegExp(f.pattern, 'u');
    } catch {
      re = null; // a pattern JavaScript cannot read is left to the server
    }
    if (re && !re.test(v)) return `This does not match the expected format (${f.pattern}).`;
  }
  return '';
}

function checkNumber(f: FieldView, n: number): string {
  if (f.minimum != null && n < f.minimum) return `Enter ${f.minimum} or more.`;
  if (f.maximum != null && n > f.maximum) return `Enter ${f.maximum} or less.`;
  return '';
}

/**
 * The typed arguments for a call, and a sentence per field that is not
 * acceptable yet. Arguments are only complete when errors is empty.
 */
export function buildArgs(
  fields: FieldView[],
  state: FormState,
): { args: Record<string, unknown>; errors: Record<string, string> } {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const raw = state.values[f.name];
    const touched = !!state.touched[f.name];
    const fail = (msg: string) => {
      errors[f.name] = msg;
    };
    switch (f.kind) {
      case 'boolean': {
        if (f.required || f.default !== undefined || touched) args[f.name] = raw === true;
        break;
      }
      case 'multi-select': {
        const list = Array.isArray(raw) ? raw : [];
        if (list.length === 0 && !f.required && !touched && f.default === undefined) break;
        if (f.minItems != null && list.length < f.minItems) {
          fail(`Choose at least ${f.minItems}.`);
        } else if (f.maxItems != null && list.length > f.maxItems) {
          fail(`Choose at most ${f.maxItems}.`);
        } else if (f.required && list.length === 0 && (f.minItems ?? 0) > 0) {
          fail('Choose at least one.');
        }
        args[f.name] = [...list];
        break;
      }
      default: {
        const v = typeof raw === 'string' ? raw : '';
        if (v.trim() === '') {
          if (f.required) fail('This is required.');
          break;
        }
        switch (f.kind) {
          case 'number':
          case 'integer': {
            const n = Number(v.trim());
            if (!Number.isFinite(n)) {
              fail('Enter a number.');
            } else if (f.kind === 'integer' && !Number.isInteger(n)) {
              fail('Enter a whole number.');
            } else {
              const msg = checkNumber(f, n);
              if (msg) fail(msg);
              args[f.name] = n;
            }
            break;
          }
          case 'json': {
            try {
              args[f.name] = JSON.parse(v);
            } catch (e) {
              fail(`This is not valid JSON: ${(e as Error).message}`);
            }
            break;
          }
          case 'date-time': {
            const t = localToRFC3339(v);
            if (t === null) fail('Enter a date and time.');
            else args[f.name] = t;
            break;
          }
          default: {
            const msg = checkText(f, v);
            if (msg) fail(msg);
            args[f.name] = v;
          }
        }
      }
    }
  }
  return { args, errors };
}

/** Reads the JSON editor's text: it must be one JSON object. */
export function parseArgsJSON(text: string): { json: string; error: string } {
  const t = text.trim() === '' ? '{}' : text;
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch (e) {
    return { json: '', error: `This is not valid JSON: ${(e as Error).message}` };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    return { json: '', error: 'The arguments must be a JSON object, like {"name": "value"}.' };
  }
  return { json: JSON.stringify(v), error: '' };
}
