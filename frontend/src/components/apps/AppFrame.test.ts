// Component tests of an MCP App's frame. api.ts is mocked (Go's AppsService
// is tested in Go, the real window and real example servers in e2e/): these
// tests check what the frame shows, the sandbox it puts the app in, and what
// it does with the messages the app posts (dispatched here as the window
// would receive them from the frame).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import AppFrame from './AppFrame.svelte';
import ToolCallCard from '../chat/ToolCallCard.svelte';
import { appView } from '../../test/apps-fixtures';
import { jsonNode, server } from '../../test/fixtures';
import { servers } from '../../lib/servers.svelte';

vi.mock('../../lib/api', async (orig) => {
  const base = await (await import('../../test/mock-api')).mockApi(orig as never);
  return {
    ...base,
    openApp: vi.fn(),
    closeApp: vi.fn(async () => {}),
    appCallTool: vi.fn(),
    appReadResource: vi.fn(),
    openAppLink: vi.fn(async () => true),
    appMessage: vi.fn(),
    appUpdateContext: vi.fn(),
    allowAppPermissions: vi.fn(),
  };
});
const mocked = vi.mocked(api);

// A browser keeps a frame's WindowProxy when the frame navigates (the same
// object before and after the app loads, which event.source is); jsdom makes
// a new window instead. Keep the first one, as the browser would.
const proxies = new WeakMap<HTMLIFrameElement, Window | null>();
const contentWindow = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow')!;
Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', {
  configurable: true,
  get(this: HTMLIFrameElement) {
    if (!proxies.has(this)) proxies.set(this, contentWindow.get!.call(this));
    return proxies.get(this);
  },
});

const props = { serverId: 's1', tool: 'get-budget', callId: 'call-1' };

function frame(): HTMLIFrameElement {
  const f = document.querySelector('iframe');
  if (!f) throw new Error('no frame');
  return f;
}

/** What postMessage does with a message before it leaves: clone it (a proxy cannot be). */
const cloneOnly = (m: unknown) => void structuredClone(m);

/** Posts data to the window as the app in the frame would. */
function fromApp(data: unknown, origin = 'gatehouse-app://abc123') {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source: frame().contentWindow }));
}

async function opened(over = {}) {
  mocked.openApp.mockResolvedValue(appView(over));
  const r = render(AppFrame, props);
  await waitFor(() => expect(frame().getAttribute('src')).toBe(appView(over).url));
  return r;
}

beforeEach(() => {
  vi.spyOn(console, 'debug').mockImplementation(() => {});
  mocked.openApp.mockReset();
  mocked.closeApp.mockClear();
  mocked.allowAppPermissions.mockReset();
});
afterEach(() => vi.restoreAllMocks());

describe('AppFrame', () => {
  it('opens the app of the call and says whose it is, with Enlarge, Reload and Close', async () => {
    await opened();
    expect(mocked.openApp).toHaveBeenCalledWith('s1', 'get-budget', 'call-1', '');
    expect(screen.getByText('Get budget')).toBeTruthy();
    expect(screen.getByText('from Budget')).toBeTruthy();
    expect(screen.getByText('App')).toBeTruthy();
    for (const name of ['Enlarge', 'Reload', 'Close']) expect(screen.getByRole('button', { name })).toBeTruthy();
  });

  it('sandboxes the frame exactly, with no allow attribute when nothing is allowed', async () => {
    await opened();
    expect(frame().getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
    expect(frame().hasAttribute('allow')).toBe(false);
    expect(frame().getAttribute('referrerpolicy')).toBe('no-referrer');
  });

  it('the allow attribute has only what the person allowed, not what the app declared', async () => {
    await opened({ permissions: ['camera', 'microphone', 'geolocation'], allowed: ['microphone'] });
    expect(frame().getAttribute('allow')).toBe('microphone');
  });

  it('an app that declares permissions gets none; a bar names them, and Allow reloads the frame with what Go allowed', async () => {
    const user = userEvent.setup();
    const declared = { permissions: ['camera', 'clipboardWrite'], allowed: [] };
    await opened(declared);
    const bar = screen.getByRole('group', { name: 'What the app asks to use' });
    expect(bar.textContent).toContain('This app asks for the camera and writing to the clipboard.');
    expect(frame().hasAttribute('allow')).toBe(false);
    const first = frame();
    mocked.allowAppPermissions.mockResolvedValue(appView({ permissions: ['camera', 'clipboardWrite'], allowed: ['clipboardWrite'] }));
    await user.click(screen.getByRole('button', { name: 'Allow' }));
    expect(mocked.allowAppPermissions).toHaveBeenCalledWith('abc123', ['camera', 'clipboardWrite']);
    // A new frame of the same instance, with the allow attribute of what Go returned (only that), loading the app again.
    await waitFor(() => expect(frame()).not.toBe(first));
    expect(frame().getAttribute('allow')).toBe('clipboard-write');
    await waitFor(() => expect(frame().getAttribute('src')).toBe('gatehouse-app://abc123/index.html'));
    expect(mocked.openApp).toHaveBeenCalledTimes(1);
    expect(mocked.closeApp).not.toHaveBeenCalled();
    // camera was not allowed by Go: the bar still names it.
    expect(screen.getByRole('group', { name: 'What the app asks to use' }).textContent).toContain('the camera');
    expect(screen.getByRole('group').textContent).not.toContain('clipboard');
  });

  it('Not now hides the bar and allows nothing', async () => {
    const user = userEvent.setup();
    await opened({ permissions: ['geolocation', 'microphone'], allowed: [] });
    expect(screen.getByRole('group', { name: 'What the app asks to use' }).textContent).toContain('your location and the microphone');
    await user.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('group', { name: 'What the app asks to use' })).toBeNull();
    expect(mocked.allowAppPermissions).not.toHaveBeenCalled();
    expect(frame().hasAttribute('allow')).toBe(false);
  });

  it('no bar when the app declares nothing, or only what is allowed already', async () => {
    await opened({ permissions: ['camera'], allowed: ['camera'] });
    expect(screen.queryByRole('group', { name: 'What the app asks to use' })).toBeNull();
    expect(frame().getAttribute('allow')).toBe('camera');
  });

  const foreign = [
    { name: 'an http address', url: 'http://127.0.0.1:9999/app.html', origin: 'http://127.0.0.1:9999' },
    { name: 'the window’s origin', url: `${location.origin}/app.html`, origin: location.origin },
    { name: 'another instance’s origin', url: 'gatehouse-app://abc123/index.html', origin: 'gatehouse-app://zzz' },
  ];
  for (const c of foreign) {
    it(`no frame (so no allow-same-origin) on ${c.name}`, async () => {
      mocked.openApp.mockResolvedValue(appView({ url: c.url, origin: c.origin }));
      render(AppFrame, props);
      await screen.findByText(/did not get an address of the app’s own/);
      expect(document.querySelector('iframe')).toBeNull();
      expect(mocked.closeApp).toHaveBeenCalledWith('abc123');
    });
  }

  it('a ring shows around the app while the keyboard is in it (WebKit only blurs the window), and goes when it leaves', async () => {
    const user = userEvent.setup();
    await opened();
    const viewport = frame().parentElement!;
    expect(viewport.classList.contains('in-app')).toBe(false);
    frame().focus();
    window.dispatchEvent(new FocusEvent('blur'));
    await waitFor(() => expect(viewport.classList.contains('in-app')).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Enlarge' }));
    await waitFor(() => expect(viewport.classList.contains('in-app')).toBe(false));
  });

  it('server text is text, never HTML', async () => {
    await opened({ serverName: '<img src=x onerror=alert(1)>', toolTitle: '<b>Budget</b>' });
    expect(screen.getByText('<b>Budget</b>')).toBeTruthy();
    expect(document.querySelector('header img, header b')).toBeNull();
  });

  it('a size request is clamped to the limits', async () => {
    await opened();
    const viewport = () => frame().parentElement!.style.height;
    fromApp({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 100000 } });
    await waitFor(() => expect(viewport()).toBe('800px'));
    fromApp({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 3 } });
    await waitFor(() => expect(viewport()).toBe('80px'));
    fromApp({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 321 } });
    await waitFor(() => expect(viewport()).toBe('321px'));
  });

  it('a flood closes the app with a sentence, and only the app', async () => {
    await opened();
    for (let i = 0; i < 50; i++) fromApp({ jsonrpc: '2.0', id: i, method: 'ping' });
    await screen.findByText('Gatehouse closed the app: it sent more than 5 messages a second.');
    expect(document.querySelector('iframe')).toBeNull();
    await waitFor(() => expect(mocked.closeApp).toHaveBeenCalledWith('abc123'));
    expect(screen.getByRole('button', { name: 'Open again' })).toBeTruthy();
  });

  it('an oversized message closes the app with a sentence', async () => {
    await opened();
    fromApp({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 100, pad: 'x'.repeat(5000) } });
    await screen.findByText(/Gatehouse closed the app: it sent a message larger than/);
    expect(document.querySelector('iframe')).toBeNull();
    await waitFor(() => expect(mocked.closeApp).toHaveBeenCalledWith('abc123'));
  });

  it('messages from another origin in the frame are not heard', async () => {
    await opened();
    mocked.appCallTool.mockResolvedValue('{"content":[]}');
    fromApp({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {} } }, 'https://evil.example');
    await new Promise((r) => setTimeout(r, 20));
    expect(mocked.appCallTool).not.toHaveBeenCalled();
  });

  it('a tools/call of the app goes to Go, and the answer only to the instance’s origin', async () => {
    await opened();
    const sent = vi.spyOn(frame().contentWindow!, 'postMessage').mockImplementation(cloneOnly);
    mocked.appCallTool.mockResolvedValue('{"content":[{"type":"text","text":"7"}]}');
    fromApp({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'add', arguments: { a: 1 } } });
    await waitFor(() => expect(mocked.appCallTool).toHaveBeenCalledWith('abc123', 'add', '{"a":1}'));
    await waitFor(() =>
      expect(sent).toHaveBeenCalledWith(
        expect.objectContaining({ id: 9, result: expect.objectContaining({ content: [{ type: 'text', text: '7' }] }) }),
        'gatehouse-app://abc123',
      ),
    );
  });

  it('after ui/initialize the app gets the call’s arguments and result', async () => {
    await opened();
    const sent = vi.spyOn(frame().contentWindow!, 'postMessage').mockImplementation(cloneOnly);
    fromApp({
      jsonrpc: '2.0',
      id: 1,
      method: 'ui/initialize',
      params: { protocolVersion: '2026-01-26', appInfo: { name: 'a', version: '1' }, appCapabilities: {} },
    });
    await waitFor(() => expect(sent).toHaveBeenCalledWith(expect.objectContaining({ id: 1, result: expect.anything() }), 'gatehouse-app://abc123'));
    const init = sent.mock.calls.find(([m]) => (m as { id?: number }).id === 1)![0] as { result: { hostContext: { theme: string; displayMode: string } } };
    expect(init.result.hostContext.displayMode).toBe('inline');
    fromApp({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    await waitFor(() => {
      const methods = sent.mock.calls.map(([m]) => (m as { method?: string }).method);
      expect(methods).toContain('ui/notifications/tool-input');
      expect(methods).toContain('ui/notifications/tool-result');
    });
    const input = sent.mock.calls.find(([m]) => (m as { method?: string }).method === 'ui/notifications/tool-input')![0];
    expect(input).toMatchObject({ params: { arguments: { year: 2026 } } });
    // Every message could be cloned, so left for the app (a Svelte proxy in it cannot: DataCloneError in WebKit).
    expect(sent.mock.results.filter((r) => r.type !== 'return')).toEqual([]);
  });

  it('Close tears the app down, removes the frame and tells Go', async () => {
    const user = userEvent.setup();
    await opened();
    const sent = vi.spyOn(frame().contentWindow!, 'postMessage').mockImplementation(cloneOnly);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(sent.mock.calls.map(([m]) => (m as { method?: string }).method)).toContain('ui/resource-teardown');
    await screen.findByText('You closed the app.', {}, { timeout: 2000 });
    expect(document.querySelector('iframe')).toBeNull();
    expect(mocked.closeApp).toHaveBeenCalledWith('abc123');
  });

  it('the app asking for teardown closes it', async () => {
    await opened();
    fromApp({ jsonrpc: '2.0', method: 'ui/notifications/request-teardown', params: {} });
    await screen.findByText('The app closed itself.', {}, { timeout: 2000 });
    expect(mocked.closeApp).toHaveBeenCalledWith('abc123');
  });

  it('Reload closes the instance and opens a new one', async () => {
    const user = userEvent.setup();
    await opened();
    mocked.openApp.mockResolvedValue(appView({ instanceId: 'def456', url: 'gatehouse-app://def456/index.html', origin: 'gatehouse-app://def456' }));
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(frame().getAttribute('src')).toBe('gatehouse-app://def456/index.html'), { timeout: 2000 });
    expect(mocked.closeApp).toHaveBeenCalledWith('abc123');
    expect(mocked.openApp).toHaveBeenCalledTimes(2);
  });

  it('Enlarge shows it over the window; Escape returns', async () => {
    const user = userEvent.setup();
    await opened();
    const box = () => document.querySelector('.app-frame')!;
    await user.click(screen.getByRole('button', { name: 'Enlarge' }));
    expect(box().classList.contains('enlarged')).toBe(true);
    expect(screen.getByRole('button', { name: 'Restore size' }).getAttribute('aria-pressed')).toBe('true');
    await user.keyboard('{Escape}');
    expect(box().classList.contains('enlarged')).toBe(false);
  });

  it('the app can ask for fullscreen and back', async () => {
    await opened();
    fromApp({ jsonrpc: '2.0', id: 3, method: 'ui/request-display-mode', params: { mode: 'fullscreen' } });
    await waitFor(() => expect(document.querySelector('.app-frame.enlarged')).toBeTruthy());
    fromApp({ jsonrpc: '2.0', id: 4, method: 'ui/request-display-mode', params: { mode: 'inline' } });
    await waitFor(() => expect(document.querySelector('.app-frame.enlarged')).toBeNull());
  });

  it('a link the app wants opened goes to Go with the instance (the consent dialog asks the person), and no dialog of its own opens', async () => {
    await opened();
    mocked.openAppLink.mockClear();
    fromApp({ jsonrpc: '2.0', id: 5, method: 'ui/open-link', params: { url: 'https://example.com/budget' } });
    await waitFor(() => expect(mocked.openAppLink).toHaveBeenCalledWith('abc123', 'https://example.com/budget'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('turning its server off closes the app with a sentence (Go has closed its instance)', async () => {
    servers.set([server('s1', 'Budget')]);
    await opened();
    expect(document.querySelector('iframe')).toBeTruthy();
    servers.set([server('s1', 'Budget', {}, false)]);
    await screen.findByText('Closed: its server was turned off or removed.');
    expect(document.querySelector('iframe')).toBeNull();
    servers.list = [];
    servers.loaded = false; // as before this test: the other tests do not load the list
  });

  it('when Go cannot open the app it says why and offers to try again', async () => {
    mocked.openApp.mockRejectedValue(new Error('The server is not connected.'));
    render(AppFrame, props);
    await screen.findByText('The app could not be opened: The server is not connected.');
    expect(document.querySelector('iframe')).toBeNull();
    expect(screen.getByRole('button', { name: 'Open again' })).toBeTruthy();
  });

  it('leaving the page closes the instance', async () => {
    const r = await opened();
    r.unmount();
    expect(mocked.closeApp).toHaveBeenCalledWith('abc123');
  });

  it('at most maxOpen apps: a new one closes the oldest with a sentence', async () => {
    const views = ['a1', 'b2', 'c3', 'd4'].map((id) => appView({ instanceId: id, url: `gatehouse-app://${id}/index.html`, origin: `gatehouse-app://${id}` }));
    for (const v of views) mocked.openApp.mockResolvedValueOnce(v);
    for (const v of views) {
      render(AppFrame, { ...props, callId: v.instanceId });
      await waitFor(() => expect(document.querySelector(`iframe[src="${v.url}"]`)).toBeTruthy());
    }
    await screen.findByText('Closed to make room for another app: at most 3 apps are open at once.', {}, { timeout: 2000 });
    expect(mocked.closeApp).toHaveBeenCalledWith('a1');
    expect(document.querySelectorAll('iframe')).toHaveLength(3);
  });
});

describe('ToolCallCard with an app', () => {
  beforeEach(() => servers.set([server('s1', 'Budget')]));

  it('a done call whose tool has an app shows it in the card, opened for that call', async () => {
    mocked.openApp.mockResolvedValue(appView());
    render(ToolCallCard, { serverName: 'Budget', tool: 'get-budget', view: jsonNode({}), state: 'done', serverId: 's1', callId: 'c9', app: true });
    await waitFor(() => expect(frame().getAttribute('sandbox')).toBe('allow-scripts allow-same-origin'));
    expect(mocked.openApp).toHaveBeenCalledWith('s1', 'get-budget', 'c9', '');
  });

  it('a running call, or a tool without an app, shows none', () => {
    render(ToolCallCard, { serverName: 'B', tool: 't', view: jsonNode({}), state: 'running', serverId: 's1', callId: 'c10', app: true });
    render(ToolCallCard, { serverName: 'B', tool: 't', view: jsonNode({}), state: 'done', serverId: 's1', callId: 'c11' });
    expect(mocked.openApp).not.toHaveBeenCalled();
  });
});
