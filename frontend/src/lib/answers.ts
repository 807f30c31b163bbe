// How the consent dialog's form becomes the values Go validates and sends.
//
// Unlike a tool form, the dialog does not judge the answer itself: Go checks
// it with the schema the server sent (E15) and returns a sentence per field.
// This module only types what the controls hold: numbers as numbers (a typo
// stays text, so Go can say "Enter a number."), date-times as RFC 3339 with
// the local offset, booleans as booleans, multi-selects as lists. Empty
// fields are sent empty; Go leaves them out or flags them as required.

import type { AnswerValues, FieldView } from './api';
import { localToRFC3339, type FormState } from './toolargs';

export function answerValues(fields: FieldView[], state: FormState): AnswerValues {
  const out: AnswerValues = {};
  for (const f of fields) {
    const raw = state.values[f.name];
    switch (f.kind) {
      case 'boolean':
        // An optional switch nobody touched and without a default is left
        // out: the person did not say "no".
        if (f.required || f.default !== undefined || state.touched[f.name]) out[f.name] = raw === true;
        break;
      case 'multi-select':
        out[f.name] = Array.isArray(raw) ? [...raw] : [];
        break;
      case 'number':
      case 'integer': {
        const v = typeof raw === 'string' ? raw.trim() : '';
        const n = Number(v);
        out[f.name] = v !== '' && Number.isFinite(n) ? n : v;
        break;
      }
      case 'date-time': {
        const v = typeof raw === 'string' ? raw : '';
        out[f.name] = v === '' ? '' : (localToRFC3339(v) ?? v);
        break;
      }
      default:
        out[f.name] = typeof raw === 'string' ? raw : '';
    }
  }
  return out;
}
