// Component tests of the tool result view: everything a server returns is
// shown as text. No Go needed; the end-to-end tests run the same checks
// against real servers.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import ToolResult from './ToolResult.svelte';
import { jsonNode, msg, result } from '../../test/fixtures';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const hostile = '<img src=x onerror="window.__pwned=1">';

describe('ToolResult', () => {
  it.each([
    ['text', { type: 'text', text: hostile }],
    ['a resource link name', { type: 'resource_link', name: hostile, uri: 'file:///x' }],
    ['a resource link URI', { type: 'resource_link', name: 'n', uri: hostile }],
    ['an embedded resource', { type: 'resource', uri: 'mem://x', text: hostile }],
    ['an unknown content type', { type: '<b>new</b>', text: hostile }],
  ])('hostile markup in %s is literal text', (_, item) => {
    const c = { text: '', mimeType: '', data: '', uri: '', name: '', title: '', ...item };
    const { container } = render(ToolResult, { result: result({ content: [c] }) });
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toContain(hostile);
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('marks the characters a person cannot see in text, a resource and its address (issue 22, item 5)', () => {
    const items = [
      { type: 'text', text: 'pay\u202Eexe.txt', mimeType: '', data: '', uri: '', name: '', title: '' },
      { type: 'resource', text: 'a\u200Bb', mimeType: 'text/plain', data: '', uri: 'file:///x\u2028y', name: 'n\u202Em', title: '' },
    ];
    const { container } = render(ToolResult, { result: result({ content: items }) });
    expect(container.textContent).not.toMatch(/[\u202E\u200B\u2028]/);
    expect([...container.querySelectorAll('.hidden-char')].map((m) => m.textContent)).toEqual(['U+202E', 'U+202E', 'U+2028', 'U+200B']);
  });

  it('hostile markup in structured content is literal text', () => {
    const value = { [hostile]: hostile };
    const { container } = render(ToolResult, { result: result({ structured: JSON.stringify(value, null, 2), structuredView: jsonNode(value) }) });
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('.key')?.textContent).toBe(hostile); // the key
    expect(container.querySelector('.v-string')?.textContent).toBe(`"${hostile}"`); // the string value
  });

  it('a resource link is plain text, not a link', () => {
    const c = { type: 'resource_link', text: '', mimeType: 'text/plain', data: '', uri: 'https://example.com/a', name: 'a.txt', title: 'File A' };
    const { container } = render(ToolResult, { result: result({ content: [c] }) });
    expect(container.querySelector('a')).toBeNull();
    expect(screen.getByText('File A')).toBeTruthy();
    expect(screen.getByText('https://example.com/a')).toBeTruthy();
  });

  it('marks an error result with the word Error', () => {
    const c = { type: 'text', text: 'disk full', mimeType: '', data: '', uri: '', name: '', title: '' };
    const { container } = render(ToolResult, { result: result({ isError: true, content: [c] }) });
    expect(container.querySelector('.result.is-error')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Error result' })).toBeTruthy();
  });

  it('shows a warning banner when structured content does not match the schema', () => {
    render(ToolResult, {
      result: result({ structured: '{"n": "x"}', structuredWarning: msg('n should be a number, not text.') }),
    });
    const banner = screen.getByRole('alert');
    expect(banner.textContent).toContain('n should be a number, not text.');
  });

  it('shows structured content as a tree and the duration', () => {
    const { container } = render(ToolResult, {
      result: result({ structured: JSON.stringify({ a: { b: [1, true, null] } }), structuredView: jsonNode({ a: { b: [1, true, null] } }), durationMs: 1500 }),
    });
    expect(container.querySelectorAll('details').length).toBeGreaterThanOrEqual(3);
    expect(screen.getByText('took 1.50 s')).toBeTruthy();
    expect(screen.getByText('true')).toBeTruthy();
  });

  it.each([
    ['png is shown', 'image/png', true],
    ['webp is shown', 'image/webp', true],
    ['svg is not', 'image/svg+xml', false],
  ])('images: %s', (_, mimeType, shown) => {
    const c = { type: 'image', text: '', mimeType, data: 'iVBORw0KGgo=', uri: '', name: '', title: '' };
    const { container } = render(ToolResult, { result: result({ content: [c] }) });
    const img = container.querySelector('img');
    if (shown) expect(img?.getAttribute('src')).toBe(`data:${mimeType};base64,iVBORw0KGgo=`);
    else {
      expect(img).toBeNull();
      expect(screen.getByText(`An image of type “${mimeType}” is not shown.`)).toBeTruthy();
    }
  });

  it('audio gets a player', () => {
    const c = { type: 'audio', text: '', mimeType: 'audio/wav', data: 'UklGRg==', uri: '', name: '', title: '' };
    const { container } = render(ToolResult, { result: result({ content: [c] }) });
    expect(container.querySelector('audio')?.getAttribute('src')).toBe('data:audio/wav;base64,UklGRg==');
  });

  describe('a resource that is not a web address', () => {
    beforeEach(() => vi.clearAllMocks());
    const link = {
      type: 'resource_link',
      text: '',
      mimeType: 'text/plain',
      data: '',
      uri: 'demo://note',
      name: 'note',
      title: 'Last note',
      readable: true,
      linkProblem: 'Gatehouse only opens web addresses',
    };

    it('opens in Gatehouse: read on the server that returned it, shown as text', async () => {
      mocked.readResource.mockResolvedValue({
        serverId: 's1',
        uri: 'demo://note',
        contents: [{ index: 0, uri: 'demo://note', mimeType: 'text/plain', kind: 'text', text: hostile, offset: 0, nextOffset: 0, size: 40, dataUrl: '', fileName: 'note.txt' }],
      });
      const user = userEvent.setup();
      render(ToolResult, { result: result({ content: [link] }), serverId: 's1' });
      expect(screen.queryByText('Gatehouse only opens web addresses')).toBeNull();
      await user.click(screen.getByRole('button', { name: 'Open in Gatehouse' }));
      const dialog = await screen.findByRole('dialog', { name: 'Last note' });
      expect(mocked.readResource).toHaveBeenCalledWith('s1', 'demo://note');
      expect((await within(dialog).findByText(hostile)).tagName).toBe('PRE');
      expect(dialog.querySelector('img')).toBeNull();
      await user.click(within(dialog).getByRole('button', { name: 'Close' }));
      expect(screen.queryByRole('dialog')).toBeNull();
    });

    it('an embedded resource opens in Gatehouse too', async () => {
      const embedded = { ...link, type: 'resource', text: 'inline text', linkProblem: undefined };
      render(ToolResult, { result: result({ content: [embedded] }), serverId: 's1' });
      expect(screen.getByText('inline text')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Open in Gatehouse' })).toBeTruthy();
    });

    it('without the server that returned it, says why it cannot open', () => {
      render(ToolResult, { result: result({ content: [link] }) });
      expect(screen.queryByRole('button', { name: 'Open in Gatehouse' })).toBeNull();
      expect(screen.getByText('Gatehouse only opens web addresses')).toBeTruthy();
    });

    it('a web address still goes through the consent display', async () => {
      const web = {
        ...link,
        uri: 'https://example.com/a',
        readable: false,
        linkProblem: undefined,
        linkId: 'l1',
        link: {
          url: 'https://example.com/a',
          scheme: 'https',
          host: 'example.com',
          asciiHost: 'example.com',
          port: '',
          domain: 'example.com',
          asciiDomain: 'example.com',
          display: 'https://example.com/a',
          before: 'https://',
          domainPart: 'example.com',
          after: '/a',
          loopback: false,
          warnings: [],
        },
      };
      const user = userEvent.setup();
      render(ToolResult, { result: result({ content: [web] }), serverId: 's1' });
      expect(screen.queryByRole('button', { name: 'Open in Gatehouse' })).toBeNull();
      await user.click(screen.getByRole('button', { name: 'Open in browser…' }));
      expect(await screen.findByRole('dialog', { name: 'Open this address in your browser?' })).toBeTruthy();
      expect(mocked.openResultLink).not.toHaveBeenCalled();
      expect(mocked.readResource).not.toHaveBeenCalled();
    });
  });
});
