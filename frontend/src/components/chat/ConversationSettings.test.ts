// Component tests of a conversation's settings: the tools allowed "in this
// conversation" are listed and can be revoked (issue 22, item 8). api.ts is
// mocked; Go's side (a revoked tool is asked again, a changed tool is held)
// is tested in app/grants_test.go.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { Conversation, ConversationGrant } from '../../lib/api';
import ConversationSettings from './ConversationSettings.svelte';
import { nav } from '../../lib/navigate.svelte';
import { providerView, server } from '../../test/fixtures';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const conversation: Conversation = {
  id: 'c1',
  title: 'Trip to 杭州',
  providerId: 'p1',
  model: '',
  systemPrompt: '',
  servers: [],
  createdAt: '2026-11-20T10:00:00Z',
  updatedAt: '2026-11-20T10:00:00Z',
};

function grant(serverId: string, serverName: string, tool: string, held = false): ConversationGrant {
  return { serverId, serverName, tool, allowedAt: '2026-11-20T10:01:00Z', held };
}

function show(running = false) {
  return render(ConversationSettings, {
    conversation,
    providers: [providerView('p1', 'Ollama')],
    servers: [server('s1', 'Mail'), server('s2', 'Files')],
    running,
    onclose: () => {},
  });
}

function allowed() {
  return within(screen.getByRole('group', { name: 'Tools allowed in this conversation' }));
}

describe('ConversationSettings: tools allowed in this conversation', () => {
  beforeEach(() => {
    vi.clearAllMocks();
  });

  it('lists each allowed tool with its server, and says which changed since', async () => {
    mocked.conversationGrants.mockResolvedValue([grant('s1', 'Mail', 'send'), grant('s2', 'Files', 'delete\u202Efile', true)]);
    show();
    await waitFor(() => expect(allowed().getAllByRole('listitem')).toHaveLength(2));
    expect(mocked.conversationGrants).toHaveBeenCalledWith('c1');
    const send = allowed().getByRole('listitem', { name: 'send · Mail' });
    expect(within(send).queryByText('Changed since you allowed it: its next call asks again.')).toBeNull();
    // A hidden character in a tool's name is shown, not obeyed.
    const del = allowed().getByRole('listitem', { name: 'delete⟨U+202E⟩file · Files' });
    expect(within(del).getByText('Changed since you allowed it: its next call asks again.')).toBeTruthy();
  });

  it('says when no tool is allowed', async () => {
    mocked.conversationGrants.mockResolvedValue([]);
    show();
    await waitFor(() => expect(mocked.conversationGrants).toHaveBeenCalled());
    expect(allowed().getByText(/No tool is allowed in this conversation/)).toBeTruthy();
  });

  it('its "Settings → Tool permissions" goes there, asking first about unsaved changes and closing the dialog', async () => {
    const user = userEvent.setup();
    nav.reset();
    nav.pane = 'chat';
    mocked.conversationGrants.mockResolvedValue([]);
    const onclose = vi.fn();
    render(ConversationSettings, {
      conversation,
      providers: [providerView('p1', 'Ollama')],
      servers: [server('s1', 'Mail'), server('s2', 'Files')],
      running: false,
      onclose,
    });
    const link = await allowed().findByRole('button', { name: 'Settings → Tool permissions' });
    await user.type(screen.getByPlaceholderText(/Instructions the model gets/), 'Be brief.');
    await user.click(link);
    const ask = await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
    expect(nav.pane).toBe('chat'); // not yet: the unsaved text is asked about first
    await user.click(within(ask).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(onclose).toHaveBeenCalled());
    expect([nav.pane, nav.section]).toEqual(['settings', 'permissions']);
  });

  it('a provider gone when saving is said with a link to Settings → Models', async () => {
    const user = userEvent.setup();
    nav.reset();
    nav.pane = 'chat';
    mocked.conversationGrants.mockResolvedValue([]);
    mocked.updateConversation.mockRejectedValue(new api.GoError({ key: 'chat.error.providerGone', args: {}, text: '' }, ''));
    const onclose = vi.fn();
    render(ConversationSettings, { conversation, providers: [providerView('p1', 'Ollama')], servers: [], running: false, onclose });
    await user.type(await screen.findByPlaceholderText(/Instructions the model gets/), 'Be brief.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByText(/That model provider no longer exists/);
    expect(alert.textContent).toBe('That model provider no longer exists; choose another (Settings → Models lists them).');
    await user.click(within(alert).getByRole('button', { name: 'Settings → Models' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Discard your changes?' })).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(onclose).toHaveBeenCalled());
    expect([nav.pane, nav.section]).toEqual(['settings', 'models']);
  });

  it('revokes one tool at once and shows those left', async () => {
    const user = userEvent.setup();
    mocked.conversationGrants.mockResolvedValue([grant('s1', 'Mail', 'send'), grant('s2', 'Files', 'read')]);
    mocked.revokeConversationGrant.mockResolvedValue([grant('s2', 'Files', 'read')]);
    show();
    await user.click(await allowed().findByRole('button', { name: 'Revoke send of Mail' }));
    expect(mocked.revokeConversationGrant).toHaveBeenCalledWith('c1', 's1', 'send');
    await waitFor(() => expect(allowed().queryByRole('listitem', { name: 'send · Mail' })).toBeNull());
    expect(allowed().getByRole('listitem', { name: 'read · Files' })).toBeTruthy();
    expect(mocked.updateConversation).not.toHaveBeenCalled();
  });

  it('shows why a revocation failed', async () => {
    const user = userEvent.setup();
    mocked.conversationGrants.mockResolvedValue([grant('s1', 'Mail', 'send')]);
    mocked.revokeConversationGrant.mockRejectedValue(new Error('the data file is read-only'));
    show();
    await user.click(await allowed().findByRole('button', { name: 'Revoke send of Mail' }));
    expect((await allowed().findByRole('alert')).textContent).toContain('the data file is read-only');
    expect(allowed().getByRole('listitem', { name: 'send · Mail' })).toBeTruthy();
  });

  it('cannot revoke while the model answers, and says why', async () => {
    mocked.conversationGrants.mockResolvedValue([grant('s1', 'Mail', 'send')]);
    show(true);
    const button = (await allowed().findByRole('button', { name: 'Revoke send of Mail' })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(allowed().getByText(/allowances can be revoked once it has finished/)).toBeTruthy();
  });
});
