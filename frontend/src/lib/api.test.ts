// How a failed call to Go becomes a sentence: Wails rejects with
// new Error(text), and Go writes its own sentences there as the JSON of the
// message (app.windowError), which the window renders in its language.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorText, GoError } from './api';
import { language, loadLanguage } from './i18n.svelte';

afterEach(() => {
  language.choice = '';
});

// The Chinese catalogue is a chunk the window fetches when first wanted; here it is loaded before the tests.
beforeAll(() => loadLanguage('zh-CN'));

describe('errorText', () => {
  const fromGo = new Error('{"key":"settings.error.answerTime","args":{},"text":"The answer time must be …"}');

  it('renders Go’s sentence in the window’s language', () => {
    expect(errorText(fromGo)).toBe('The answer time must be between 1 minute and 24 hours.');
    language.choice = 'zh-CN';
    expect(errorText(fromGo)).toBe('答复时限必须在 1 分钟到 24 小时之间。');
  });

  it('keeps an error that is not Gatehouse’s sentence as its text', () => {
    expect(errorText(new Error('disk full'))).toBe('disk full');
    expect(errorText('{"not":"a message"}')).toBe('{"not":"a message"}');
  });

  it('a GoError knows which sentence it is', () => {
    const e = new GoError({ key: 'mcp.error.notOpen', args: {}, text: '' }, 'x');
    expect(e.is('mcp.error.notOpen')).toBe(true);
    expect(errorText(e)).toMatch(/^This request is no longer open/);
  });
});
