// The hidden rehearsal of the consent dialog at start-up: the person never
// sees it, it never takes the focus, it sends nothing, and it goes away.
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import * as api from '../lib/api';
import { servers } from '../lib/servers.svelte';
import ConsentRehearsal from './ConsentRehearsal.svelte';

vi.mock('../lib/api', async (orig) => (await import('../test/mock-api')).mockApi(orig as never));

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
});
