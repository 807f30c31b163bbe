// The hidden rehearsal of the consent dialog at start-up: the person never
// sees it, it never takes the focus, it sends nothing, and it goes away.
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import * as api from '../../lib/api';
import { servers } from '../../lib/servers.svelte';
import { questions } from '../../lib/questions.svelte';
import { question } from '../../test/fixtures';
import ConsentRehearsal from './ConsentRehearsal.svelte';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));

describe('ConsentRehearsal', () => {
  it('draws the dialog hidden for a moment, without the focus, and removes it', async () => {
    const before = document.createElement('input');
    document.body.append(before);
    before.focus();
    const { container } = render(ConsentRehearsal);
    await new Promise((r) => setTimeout(r, 120));
    expect(container.querySelector('dialog')).toBeNull(); // not before the server list is in
    servers.set([]);

    await waitFor(() => expect(container.querySelector('dialog')).not.toBeNull());
    const dialog = container.querySelector('dialog')!;
    expect(dialog.open).toBe(true);
    expect(dialog.closest('[inert][aria-hidden="true"]')).not.toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull(); // nothing for a screen reader
    expect(document.activeElement).toBe(before);

    await waitFor(() => expect(container.querySelector('dialog')).toBeNull());
    expect(document.activeElement).toBe(before);
    expect(vi.mocked(api.validateAnswer)).not.toHaveBeenCalled();
    expect(vi.mocked(api.submitAnswer)).not.toHaveBeenCalled();
    before.remove();
  });

  it('draws nothing beside a real question, which has warmed the dialog already', async () => {
    questions.apply({ version: 1, current: question({ id: 'q1' }), waiting: [], opened: [], notices: [] });
    servers.set([]);
    let drawn = false;
    const watch = new MutationObserver(() => (drawn ||= document.querySelector('dialog') !== null));
    watch.observe(document.body, { childList: true, subtree: true });
    const { unmount } = render(ConsentRehearsal);
    await new Promise((r) => setTimeout(r, 200)); // past the rehearsal's moment
    watch.disconnect();
    expect(drawn).toBe(false);
    unmount();
    questions.apply({ version: 2, waiting: [], opened: [], notices: [] });
  });
});
