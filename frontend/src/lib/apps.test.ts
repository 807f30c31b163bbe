// Tests of the window's side of MCP Apps (apps.ts, appbridge.ts): which frames may have
// allow-same-origin, the allow attribute, the bounds an app's messages must
// keep, and that every request of an app goes to Go through api.ts (mocked
// here; Go's checks are tested in Go, the real window in e2e/).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from './api';
import { appView } from '../test/apps-fixtures';
import { MessageGuard, OpenApps, allowAttribute, asked, clampHeight, frameOrigin, messageBytes } from './apps';
import { GuardedTransport, hostCapabilities, hostContext, newBridge, type FrameHooks } from './appbridge';

vi.mock('./api', async (orig) => {
  const base = await (await import('../test/mock-api')).mockApi(orig as never);
  return {
    ...base,
    appCallTool: vi.fn(),
    appReadResource: vi.fn(),
    openAppLink: vi.fn(async () => {}),
    appMessage: vi.fn(),
    appUpdateContext: vi.fn(),
  };
});
const mocked = vi.mocked(api);

describe('frameOrigin', () => {
  const cases = [
    { name: 'the instance URL on the app scheme', url: 'gatehouse-app://abc123/index.html', origin: 'gatehouse-app://abc123', want: 'gatehouse-app://abc123' },
    { name: 'an origin that is not the URL’s', url: 'gatehouse-app://abc123/index.html', origin: 'gatehouse-app://other', want: '' },
    { name: 'the window’s own origin', url: `${location.origin}/app.html`, origin: location.origin, want: '' },
    { name: 'http', url: 'http://127.0.0.1:8080/app.html', origin: 'http://127.0.0.1:8080', want: '' },
    { name: 'a data URL', url: 'data:text/html,<p>x', origin: 'null', want: '' },
    { name: 'credentials in the URL', url: 'gatehouse-app://u:p@abc123/', origin: 'gatehouse-app://abc123', want: '' },
    { name: 'no host', url: 'gatehouse-app:/index.html', origin: 'gatehouse-app://', want: '' },
    { name: 'not a URL', url: 'nothing', origin: '', want: '' },
  ];
  for (const c of cases) it(c.name, () => expect(frameOrigin({ url: c.url, origin: c.origin })).toBe(c.want));
});

describe('allowAttribute', () => {
  const cases = [
    { name: 'none allowed, no attribute', allowed: [], want: '' },
    { name: 'the four known permissions', allowed: ['camera', 'microphone', 'geolocation', 'clipboardWrite'], want: 'camera; microphone; geolocation; clipboard-write' },
    { name: 'unknown names and policy syntax are dropped', allowed: ['fullscreen', 'camera *', "camera 'src'", 'toString', 'camera'], want: 'camera' },
    { name: 'each once', allowed: ['camera', 'camera'], want: 'camera' },
  ];
  for (const c of cases) it(c.name, () => expect(allowAttribute(c.allowed)).toBe(c.want));
});

describe('asked', () => {
  const cases = [
    { name: 'nothing declared', permissions: [], allowed: [], want: [] },
    { name: 'all declared, none allowed', permissions: ['camera', 'clipboardWrite'], allowed: [], want: ['camera', 'clipboardWrite'] },
    { name: 'what is allowed is not asked again', permissions: ['camera', 'microphone'], allowed: ['camera'], want: ['microphone'] },
    { name: 'unknown names and repeats are left out', permissions: ['usb', 'geolocation', 'geolocation', 'toString'], allowed: [], want: ['geolocation'] },
  ];
  for (const c of cases) it(c.name, () => expect(asked(c)).toEqual(c.want));
});

describe('clampHeight', () => {
  const limits = { minHeight: 80, maxHeight: 800 };
  const cases = [
    { name: 'within the limits', h: 300, want: 300 },
    { name: '100,000 px is the maximum', h: 100000, want: 800 },
    { name: 'zero is the minimum', h: 0, want: 80 },
    { name: 'negative is the minimum', h: -50, want: 80 },
    { name: 'fractions are rounded', h: 200.6, want: 201 },
    { name: 'infinity is no request', h: Infinity, want: null },
    { name: 'NaN is no request', h: NaN, want: null },
    { name: 'a string is no request', h: '500', want: null },
    { name: 'none', h: undefined, want: null },
  ];
  for (const c of cases) it(c.name, () => expect(clampHeight(c.h, limits)).toBe(c.want));
});

describe('MessageGuard', () => {
  it('lets a second’s worth through, then calls it a flood', () => {
    let now = 0;
    const g = new MessageGuard({ maxMessageBytes: 1000, messagesPerSecond: 5 }, () => now);
    for (let i = 0; i < 5; i++) expect(g.check({ i })).toBeNull();
    expect(g.check({ i: 5 })).toBe('flood');
  });

  it('refills at the rate: a steady app is never a flood', () => {
    let now = 0;
    const g = new MessageGuard({ maxMessageBytes: 1000, messagesPerSecond: 5 }, () => now);
    for (let i = 0; i < 100; i++) {
      now += 200;
      expect(g.check({ i })).toBeNull();
    }
  });

  it('a message larger than the limit is too big, counted in UTF-8 bytes', () => {
    const g = new MessageGuard({ maxMessageBytes: 100, messagesPerSecond: 50 }, () => 0);
    expect(g.check({ s: 'x'.repeat(80) })).toBeNull();
    expect(g.check({ s: 'x'.repeat(120) })).toBe('tooBig');
    expect(g.check({ s: '好'.repeat(40) })).toBe('tooBig'); // 40 characters, 120 bytes
  });

  it('data that is not JSON is too big to count', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(messageBytes(cyclic, 100)).toBeGreaterThan(100);
    expect(messageBytes(1n, 100)).toBeGreaterThan(100);
  });
});

describe('GuardedTransport', () => {
  let frame: HTMLIFrameElement;
  beforeEach(() => {
    document.body.innerHTML = '';
    frame = document.createElement('iframe');
    document.body.append(frame);
  });

  const origin = 'gatehouse-app://abc123';
  const post = (data: unknown, from: MessageEventSource | null = frame.contentWindow, o = origin) =>
    window.dispatchEvent(new MessageEvent('message', { data, source: from, origin: o }));
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

  async function started(limits = { maxMessageBytes: 1000, messagesPerSecond: 5 }) {
    const violation = vi.fn();
    const heard = vi.fn();
    const tr = new GuardedTransport(frame.contentWindow!, origin, limits, violation, () => 0);
    tr.onmessage = heard;
    await tr.start();
    return { tr, violation, heard };
  }

  it('hears its frame on the instance’s origin', async () => {
    const { tr, heard } = await started();
    post(ping(1));
    expect(heard).toHaveBeenCalledOnce();
    await tr.close();
  });

  it('does not hear another origin in its frame (the app navigated away), nor another window', async () => {
    const { tr, heard, violation } = await started();
    post(ping(1), frame.contentWindow, 'https://elsewhere.example');
    post(ping(2), window);
    expect(heard).not.toHaveBeenCalled();
    expect(violation).not.toHaveBeenCalled();
    await tr.close();
  });

  it('a flood: the message beyond the rate is not heard, the app is reported once, and nothing after', async () => {
    const { tr, heard, violation } = await started();
    for (let i = 0; i < 20; i++) post(ping(i));
    expect(heard).toHaveBeenCalledTimes(5);
    expect(violation).toHaveBeenCalledOnce();
    expect(violation).toHaveBeenCalledWith('flood');
    await tr.close();
  });

  it('an oversized message is not heard and reported', async () => {
    const { tr, heard, violation } = await started();
    post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { pad: 'x'.repeat(2000) } });
    expect(heard).not.toHaveBeenCalled();
    expect(violation).toHaveBeenCalledWith('tooBig');
    await tr.close();
  });

  it('posts only to the instance’s origin', async () => {
    const { tr } = await started();
    const spy = vi.spyOn(frame.contentWindow!, 'postMessage').mockImplementation(() => {});
    await tr.send(ping(1) as never);
    expect(spy).toHaveBeenCalledWith(ping(1), origin);
    await tr.close();
  });
});

describe('host context and capabilities', () => {
  it('offers inline and fullscreen, the height limit, and the language', () => {
    const c = hostContext(appView(), 'inline', 'zh-CN', 640);
    expect(c.availableDisplayModes).toEqual(['inline', 'fullscreen']);
    expect(c.containerDimensions).toEqual({ maxHeight: 800, width: 640 });
    expect(c.locale).toBe('zh-CN');
    expect(['light', 'dark']).toContain(c.theme);
  });

  it('the theme follows the window', () => {
    document.documentElement.dataset.theme = 'dark';
    expect(hostContext(appView(), 'inline', 'en').theme).toBe('dark');
    document.documentElement.dataset.theme = 'light';
    expect(hostContext(appView(), 'inline', 'en').theme).toBe('light');
    delete document.documentElement.dataset.theme;
  });

  it('says only the permissions the person allowed, and no downloads or sampling', () => {
    const caps = hostCapabilities(appView({ permissions: ['camera', 'microphone'], allowed: ['microphone'] }));
    expect(caps.sandbox?.permissions).toEqual({ microphone: {} });
    expect(caps.downloadFile).toBeUndefined();
    expect(caps.sampling).toBeUndefined();
  });
});

describe('newBridge routes every request to Go', () => {
  const hooks = () => ({
    resize: vi.fn<FrameHooks['resize']>(),
    displayMode: vi.fn<FrameHooks['displayMode']>((m) => m),
    close: vi.fn<FrameHooks['close']>(),
    violation: vi.fn<FrameHooks['violation']>(),
  });
  const extra = {} as never;

  it('tools/call goes to appCallTool with the instance, and Go’s JSON comes back parsed', async () => {
    mocked.appCallTool.mockResolvedValue('{"content":[{"type":"text","text":"42"}]}');
    const b = newBridge(appView(), hooks(), {});
    const r = await b.oncalltool!({ name: 'add', arguments: { a: 1 } }, extra);
    expect(mocked.appCallTool).toHaveBeenCalledWith('abc123', 'add', '{"a":1}');
    expect(r).toEqual({ content: [{ type: 'text', text: '42' }] });
  });

  it('a refused tools/call is an error for the app, with Go’s sentence', async () => {
    mocked.appCallTool.mockRejectedValue(new api.GoError({ key: 'apps.x', args: {}, text: 'The person denied the call.' }, 'x'));
    const b = newBridge(appView(), hooks(), {});
    await expect(b.oncalltool!({ name: 'delete-all', arguments: {} }, extra)).rejects.toThrow('The person denied the call.');
  });

  it('resources/read goes to appReadResource', async () => {
    mocked.appReadResource.mockResolvedValue('{"contents":[]}');
    const b = newBridge(appView(), hooks(), {});
    expect(await b.onreadresource!({ uri: 'ui://budget/data.json' }, extra)).toEqual({ contents: [] });
    expect(mocked.appReadResource).toHaveBeenCalledWith('abc123', 'ui://budget/data.json');
  });

  it('ui/open-link goes to Go, which checks it and asks the person; the app hears whether it opened', async () => {
    mocked.openAppLink.mockResolvedValue(true);
    const b = newBridge(appView(), hooks(), {});
    expect(await b.onopenlink!({ url: 'https://example.com/' }, extra)).toEqual({});
    expect(mocked.openAppLink).toHaveBeenCalledWith('abc123', 'https://example.com/');
    mocked.openAppLink.mockResolvedValue(false);
    expect(await b.onopenlink!({ url: 'https://example.com/' }, extra)).toEqual({ isError: true });
  });

  it('ui/open-link that Go refuses (file:, javascript:) is an error for the app, with Go’s sentence', async () => {
    mocked.openAppLink.mockRejectedValue(new Error('Only https addresses open.'));
    const b = newBridge(appView(), hooks(), {});
    await expect(b.onopenlink!({ url: 'file:///etc/passwd' }, extra)).rejects.toThrow('Only https addresses open.');
  });

  it('ui/message goes to appMessage; refused, the app gets isError', async () => {
    const b = newBridge(appView(), hooks(), {});
    const params = { role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] };
    mocked.appMessage.mockResolvedValue(true);
    expect(await b.onmessage!(params, extra)).toEqual({});
    expect(mocked.appMessage).toHaveBeenCalledWith('abc123', JSON.stringify(params));
    mocked.appMessage.mockResolvedValue(false);
    expect(await b.onmessage!(params, extra)).toEqual({ isError: true });
  });

  it('ui/update-model-context goes to appUpdateContext; declined, it is an error', async () => {
    const b = newBridge(appView(), hooks(), {});
    const params = { content: [{ type: 'text' as const, text: 'total 5' }] };
    mocked.appUpdateContext.mockResolvedValue(true);
    expect(await b.onupdatemodelcontext!(params, extra)).toEqual({});
    expect(mocked.appUpdateContext).toHaveBeenCalledWith('abc123', JSON.stringify(params));
    mocked.appUpdateContext.mockResolvedValue(false);
    await expect(b.onupdatemodelcontext!(params, extra)).rejects.toThrow();
  });

  it('size requests are clamped; display modes are inline or fullscreen; teardown closes', async () => {
    const h = hooks();
    const b = newBridge(appView(), h, {});
    b.onsizechange!({ height: 100000 });
    expect(h.resize).toHaveBeenCalledWith(800);
    b.onsizechange!({ width: 10 });
    expect(h.resize).toHaveBeenCalledOnce();
    expect(await b.onrequestdisplaymode!({ mode: 'fullscreen' }, extra)).toEqual({ mode: 'fullscreen' });
    expect(await b.onrequestdisplaymode!({ mode: 'pip' }, extra)).toEqual({ mode: 'inline' });
    b.onrequestteardown!({});
    expect(h.close).toHaveBeenCalledOnce();
  });
});

describe('OpenApps', () => {
  it('opening one beyond the maximum closes the oldest', () => {
    const o = new OpenApps();
    const evicted: string[] = [];
    for (const id of ['a', 'b', 'c', 'd']) o.add(id, 3, () => void evicted.push(id));
    expect(evicted).toEqual(['a']);
    expect(o.count).toBe(3);
    o.remove('b');
    o.add('e', 3, () => void evicted.push('e'));
    expect(evicted).toEqual(['a']);
  });

  it('makes room before one more opens: Go refuses one beyond the maximum', async () => {
    const o = new OpenApps();
    const evicted: string[] = [];
    for (const id of ['a', 'b']) o.add(id, 2, () => void evicted.push(id));
    await o.makeRoom();
    expect(evicted).toEqual(['a']);
    expect(o.count).toBe(1);
    await o.makeRoom();
    expect(evicted).toEqual(['a']);
  });
});
