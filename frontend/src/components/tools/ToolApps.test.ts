// The Tools pane and MCP Apps: a tool with an interface is marked in the
// list, a tool only for apps says so, and after a call of a tool with an
// app the app shows first, opened for that call, with the raw result folded
// under it. api.ts is mocked; the frame itself is tested in
// components/apps/AppFrame.test.ts.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import { servers } from '../../lib/servers.svelte';
import { tools } from '../../lib/tools.svelte';
import ToolRunner from './ToolRunner.svelte';
import { result, server, tool, type TestTool } from '../../test/fixtures';
import { appView } from '../../test/apps-fixtures';

vi.mock('../../lib/api', async (orig) => {
  const base = await (await import('../../test/mock-api')).mockApi(orig as never);
  return { ...base, openApp: vi.fn(), closeApp: vi.fn(async () => {}) };
});
const mocked = vi.mocked(api);

const withApp = tool('show-budget', { title: 'Show budget', app: { resourceUri: 'ui://budget/app.html', forModel: true, forApp: true } });
const appOnly = tool('save-budget', { title: 'Save budget', app: { resourceUri: '', forModel: false, forApp: true } });
const plain = tool('echo', { title: 'Echo' });

describe('Tools pane with MCP Apps', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    tools.reset();
    servers.set([server('s1', 'Budget')]);
    mocked.listTools.mockResolvedValue([withApp, appOnly, plain]);
    mocked.toolForm.mockImplementation(async (_s, name) => {
      const x = [withApp, appOnly, plain].find((t) => t.name === name) as TestTool;
      return { form: x.form, inputSchema: x.inputSchema, schemaId: x.schemaId };
    });
    mocked.callTool.mockResolvedValue(result({ content: [{ type: 'text', text: 'ok', mimeType: '', data: '', uri: '', name: '', title: '' }] }));
    mocked.openApp.mockResolvedValue(appView());
  });

  it('marks a tool with an app, and a tool only for apps', async () => {
    render(ToolRunner);
    const a = await screen.findByRole('button', { name: /Show budget/ });
    expect(within(a).getByText('App')).toBeTruthy();
    expect(within(a).queryByText('Only for apps')).toBeNull();
    const o = screen.getByRole('button', { name: /Save budget/ });
    expect(within(o).getByText('Only for apps')).toBeTruthy();
    const p = screen.getByRole('button', { name: /Echo/ });
    expect(within(p).queryByText('App')).toBeNull();
    expect(within(p).queryByText('Only for apps')).toBeNull();
  });

  it('after a call of a tool with an app, the app shows, opened for that call', async () => {
    const user = userEvent.setup();
    render(ToolRunner);
    await user.click(await screen.findByRole('button', { name: /Show budget/ }));
    await user.click(await screen.findByRole('button', { name: 'Call' }));
    await waitFor(() => expect(document.querySelector('iframe')?.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin'));
    const callID = mocked.callTool.mock.calls[0][0];
    expect(mocked.openApp).toHaveBeenCalledWith('s1', 'show-budget', callID, '');
  });

  it('the app comes first; the raw result is folded under it, a click away', async () => {
    const user = userEvent.setup();
    render(ToolRunner);
    await user.click(await screen.findByRole('button', { name: /Show budget/ }));
    await user.click(await screen.findByRole('button', { name: 'Call' }));
    await waitFor(() => expect(document.querySelector('iframe')).not.toBeNull());
    const app = screen.getByRole('region', { name: 'Get budget app from Budget' });
    const raw = screen.getByText('The result as the server sent it').closest('details')!;
    expect(app.compareDocumentPosition(raw) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(raw.open).toBe(false);
    expect(within(raw).getByRole('region', { name: 'Result' }).textContent).toContain('ok');
    await user.click(screen.getByText('The result as the server sent it'));
    expect(raw.open).toBe(true);
  });

  it('an error result of a tool with an app is not folded', async () => {
    const user = userEvent.setup();
    mocked.callTool.mockResolvedValue(result({ isError: true, content: [{ type: 'text', text: 'no budget', mimeType: '', data: '', uri: '', name: '', title: '' }] }));
    render(ToolRunner);
    await user.click(await screen.findByRole('button', { name: /Show budget/ }));
    await user.click(await screen.findByRole('button', { name: 'Call' }));
    const raw = (await screen.findByText('The result as the server sent it')).closest('details')!;
    expect(raw.open).toBe(true);
  });

  it('a tool without an app shows no frame after its call', async () => {
    const user = userEvent.setup();
    render(ToolRunner);
    await user.click(await screen.findByRole('button', { name: /Echo/ }));
    await user.click(await screen.findByRole('button', { name: 'Call' }));
    await screen.findByText('ok');
    expect(mocked.openApp).not.toHaveBeenCalled();
    expect(document.querySelector('iframe')).toBeNull();
    expect(screen.queryByText('The result as the server sent it')).toBeNull();
  });
});
