// Component tests of the conversation list: Rename and Delete sit in a menu
// behind a "⋯" button, so that titles get the row's width (issue 26), and
// the menu works from the keyboard. api.ts is mocked; the rename and delete
// themselves are tested in ChatPane.test.ts and in Go (app/chat_test.go).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { Conversation } from '../../lib/api';
import { chat } from '../../lib/chat.svelte';
import ConversationList from './ConversationList.svelte';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

function conversation(id: string, title: string): Conversation {
  return { id, title, providerId: 'p1', createdAt: '2026-11-22T10:00:00Z', updatedAt: '2026-11-22T10:00:00Z' };
}

beforeEach(() => {
  vi.clearAllMocks();
  Object.assign(chat, {
    conversations: [conversation('c1', 'Trip plans for the long weekend in Lisbon'), conversation('c2', 'Tax forms')],
    query: '',
    selected: '',
  });
  mocked.conversationMessages.mockResolvedValue({ messages: [], more: false });
});

describe('ConversationList', () => {
  it('a row is its title and a ⋯ button; Rename and Delete are not in it until the menu opens', () => {
    render(ConversationList);
    const row = screen.getByRole('button', { name: 'Trip plans for the long weekend in Lisbon' }).closest('li')!;
    expect(within(row).getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent)).toEqual([
      'Trip plans for the long weekend in Lisbon',
      'Actions for Trip plans for the long weekend in Lisbon',
    ]);
    expect(within(row).queryByText('Rename')).toBeNull();
    expect(within(row).queryByText('Delete')).toBeNull();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('from the keyboard: Tab reaches ⋯, Enter opens the menu on Rename, Down moves, Escape closes it and focus returns', async () => {
    const user = userEvent.setup();
    render(ConversationList);
    screen.getByRole('button', { name: 'Trip plans for the long weekend in Lisbon' }).focus();
    await user.tab();
    const more = screen.getByRole('button', { name: 'Actions for Trip plans for the long weekend in Lisbon' });
    expect(document.activeElement).toBe(more);
    expect(more.getAttribute('aria-haspopup')).toBe('menu');
    expect(more.getAttribute('aria-expanded')).toBe('false');

    await user.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: 'Actions for Trip plans for the long weekend in Lisbon' });
    expect(more.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Rename Trip plans for the long weekend in Lisbon' }));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Delete Trip plans for the long weekend in Lisbon' }));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Rename');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(more);
    expect(more.getAttribute('aria-expanded')).toBe('false');
  });

  it('Down on ⋯ opens the menu too, and Up opens it on its last item', async () => {
    const user = userEvent.setup();
    render(ConversationList);
    const more = screen.getByRole('button', { name: 'Actions for Tax forms' });
    more.focus();
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement?.textContent).toBe('Delete');
    await user.keyboard('{Escape}');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Rename');
  });

  it('Rename from the menu edits the title in place; Delete asks first', async () => {
    const user = userEvent.setup();
    render(ConversationList);
    await user.click(screen.getByRole('button', { name: 'Actions for Tax forms' }));
    await user.click(screen.getByRole('menuitem', { name: 'Rename Tax forms' }));
    expect(screen.queryByRole('menu')).toBeNull();
    const input = screen.getByRole('textbox', { name: 'New title' });
    await waitFor(() => expect(document.activeElement).toBe(input));
    await user.keyboard('{Escape}');

    const more = screen.getByRole('button', { name: 'Actions for Tax forms' });
    await user.click(more);
    await user.click(screen.getByRole('menuitem', { name: 'Delete Tax forms' }));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Delete this conversation?' })).toBeTruthy();
    expect(mocked.deleteConversation).not.toHaveBeenCalled();
  });

  it('a click outside the open menu closes it; one menu is open at a time', async () => {
    const user = userEvent.setup();
    render(ConversationList);
    await user.click(screen.getByRole('button', { name: 'Actions for Tax forms' }));
    expect(screen.getAllByRole('menu')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Actions for Trip plans for the long weekend in Lisbon' }));
    expect(screen.getAllByRole('menu')).toHaveLength(1);
    expect(screen.getByRole('menu').id).toBe('menu-c1');
    await user.click(screen.getByRole('searchbox', { name: 'Search conversations' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
