import { afterEach, describe, expect, it } from 'vitest';
import { startViewID, takeStartView } from './startview';

/** Puts the data element into the page as Go writes it (app/startpage.go). */
function serve(text: string) {
  const el = document.createElement('script');
  el.type = 'application/json';
  el.id = startViewID;
  el.textContent = text;
  document.head.append(el);
}

describe('the start view Go wrote into the page', () => {
  afterEach(() => document.getElementById(startViewID)?.remove());

  it('is read once, then left to the stores: its element is gone', () => {
    // Go writes < > & as \u003c \u003e \u0026: a server's name cannot end the element.
    serve(
      '{"language":{"choice":"zh-CN","language":"zh-CN","system":"en"},"theme":{"choice":"system","system":"dark"},' +
        '"servers":{"version":3,"servers":[{"id":"1","input":{"name":"\\u003c/script\\u003e \\u0026"}}]},"welcomeDismissed":true}',
    );
    const v = takeStartView();
    expect(v?.language.choice).toBe('zh-CN');
    expect(v?.theme.system).toBe('dark');
    expect(v?.servers.servers[0].input.name).toBe('</script> &');
    expect(v?.welcomeDismissed).toBe(true);
    expect(document.getElementById(startViewID)).toBeNull();
    expect(takeStartView()).toBeNull();
  });

  it.each([
    ['there is none (outside the app)', null],
    ['it is not JSON', '{"language":'],
    ['it has no server list', '{"language":{}}'],
  ])('is null when %s, and the stores ask Go', (_, text) => {
    if (text !== null) serve(text);
    expect(takeStartView()).toBeNull();
  });
});
