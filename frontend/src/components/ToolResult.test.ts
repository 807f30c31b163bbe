// Component tests of the tool result view: everything a server returns is
// shown as text. No Go needed; the end-to-end tests run the same checks
// against real servers.
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import ToolResult from './ToolResult.svelte';
import { msg, result } from '../test/fixtures';

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

  it('hostile markup in structured content is literal text', () => {
    const structured = JSON.stringify({ [hostile]: hostile }, null, 2);
    const { container } = render(ToolResult, { result: result({ structured }) });
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText(hostile)).toBeTruthy(); // the key
    expect(screen.getByText(JSON.stringify(hostile))).toBeTruthy(); // the string value
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
      result: result({ structured: JSON.stringify({ a: { b: [1, true, null] } }), durationMs: 1500 }),
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
});
