// What a form's controls hold, and how it becomes the values Go checks.
//
// The one place where the UI types a form's input, for tool forms and the
// consent dialog alike. It only converts: numbers as numbers (a typo stays
// text, so that Go can say "Enter a number."), date-times as RFC 3339 with
// the local offset, booleans as booleans (a switch nobody answered holds
// "" and is left out), multi-selects as lists, JSON
// fields as the text written (Go parses it). Go judges the result against
// the schema, leaves empty fields out and writes every sentence; nothing
// here decides what is valid.

import type { AnswerValues, Field } from './api';

/** What a control holds: text, a switch's true or false ("" while not answered), or the choices of a list. */
export type FieldValue = string | boolean | string[];

export interface FormState {
  values: Record<string, FieldValue>;
  /** Fields the person changed: their problems show before Submit. */
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

/** The value a field starts with: its schema default (E12), or empty. */
export function initialValue(f: Field): FieldValue {
  const d: unknown = f.default;
  switch (f.kind) {
    case 'boolean':
      // No default: not answered, neither on nor off (E14).
      return typeof d === 'boolean' ? d : '';
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

/** The state a form starts in: every field at its default or empty, none touched. */
export function initialState(fields: Field[]): FormState {
  const values: Record<string, FieldValue> = {};
  for (const f of fields) values[f.name] = initialValue(f);
  return { values, touched: {} };
}

/** The form's values, typed by field kind, for Go to check and send. */
export function formValues(fields: Field[], state: FormState): AnswerValues {
  const out: AnswerValues = {};
  for (const f of fields) {
    const raw = state.values[f.name];
    const text = typeof raw === 'string' ? raw : '';
    switch (f.kind) {
      case 'boolean':
        // Sent as shown: on, off, or — not answered — not at all; Go
        // says so when the switch is required.
        if (typeof raw === 'boolean') out[f.name] = raw;
        break;
      case 'multi-select':
        out[f.name] = Array.isArray(raw) ? [...raw] : [];
        break;
      case 'number':
      case 'integer': {
        const n = Number(text.trim());
        out[f.name] = text.trim() !== '' && Number.isFinite(n) ? n : text;
        break;
      }
      case 'date-time':
        out[f.name] = text === '' ? '' : (localToRFC3339(text) ?? text);
        break;
      default:
        out[f.name] = text;
    }
  }
  return out;
}
