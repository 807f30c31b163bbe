import { afterEach, describe, expect, it } from 'vitest';
import { audioTypes, guardNavigation, imageTypes, mediaURL } from './links';

describe('mediaURL', () => {
  it.each([
    ['png is shown', 'image/png', 'iVBORw0KGgo=', imageTypes, 'data:image/png;base64,iVBORw0KGgo='],
    ['the type is matched without case or parameters', 'IMAGE/JPEG; q=1', 'AAAA', imageTypes, 'data:image/jpeg;base64,AAAA'],
    ['svg is never shown', 'image/svg+xml', 'PHN2Zz4=', imageTypes, ''],
    ['html is never shown', 'text/html', 'PGI+', imageTypes, ''],
    ['data that is not base64 is refused', 'image/png', 'AAAA,<svg onload=x>', imageTypes, ''],
    ['empty data is refused', 'image/png', '', imageTypes, ''],
    ['wav audio plays', 'audio/wav', 'UklGRg==', audioTypes, 'data:audio/wav;base64,UklGRg=='],
    ['an image is not audio', 'image/png', 'AAAA', audioTypes, ''],
  ])('%s', (_, mime, data, allowed, want) => {
    expect(mediaURL(mime, data, allowed)).toBe(want);
  });
});

describe('guardNavigation', () => {
  let off = () => {};
  afterEach(() => {
    off();
    document.body.innerHTML = '';
  });

  it('stops a link click from navigating, including a click inside the link', () => {
    off = guardNavigation(document);
    const a = document.createElement('a');
    a.href = 'https://example.com/';
    const span = document.createElement('span');
    span.textContent = 'go';
    a.append(span);
    document.body.append(a);
    const ev = new MouseEvent('click', { bubbles: true, cancelable: true });
    span.dispatchEvent(ev);
    expect(ev.defaultPrevented).toBe(true);
  });

  it('leaves other clicks alone', () => {
    off = guardNavigation(document);
    const b = document.createElement('button');
    document.body.append(b);
    const ev = new MouseEvent('click', { bubbles: true, cancelable: true });
    b.dispatchEvent(ev);
    expect(ev.defaultPrevented).toBe(false);
  });
});
