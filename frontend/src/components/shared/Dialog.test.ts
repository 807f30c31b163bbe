// The keys and the discard question every dialog shares (Dialog.svelte,
// lib/dialog.ts), through a small dialog with a text field, a textarea and a
// checkbox. What the browser itself does (the focus on opening, the top layer)
// is checked in e2e/dialogs.test.mjs.
import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import DialogHarness from '../../test/DialogHarness.svelte';
import ConfirmDialog from './ConfirmDialog.svelte';

function open(reason = '') {
  const onclose = vi.fn();
  const onsubmit = vi.fn();
  render(DialogHarness, { onclose, onsubmit, reason });
  return { onclose, onsubmit, name: screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement };
}

describe('Dialog', () => {
  it.each([
    { key: '{Escape}', what: 'Escape' },
    { key: '{Control>}w{/Control}', what: 'Ctrl+W' },
    { key: '{Control>}W{/Control}', what: 'Ctrl+W with Caps Lock' },
  ])('$what closes an untouched dialog at once, without asking', async ({ key }) => {
    const user = userEvent.setup();
    const { onclose, name } = open();
    await user.click(name);
    await user.keyboard(key);
    expect(onclose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it.each([
    { key: '{Escape}', what: 'Escape' },
    { key: '{Control>}w{/Control}', what: 'Ctrl+W' },
  ])('$what with unsaved input asks, starting on Keep editing; Escape there keeps editing', async ({ key }) => {
    const user = userEvent.setup();
    const { onclose, name } = open();
    await user.type(name, 'draft');
    await user.keyboard(key);
    const ask = screen.getByRole('alertdialog', { name: 'Discard your changes?' });
    expect(within(ask).getByText('What you entered will be lost.')).toBeTruthy();
    expect(document.activeElement).toBe(within(ask).getByRole('button', { name: 'Keep editing' }));

    // Escape in the question answers it with Keep editing, and only it: the dialog stays.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onclose).not.toHaveBeenCalled();
    expect(name.value).toBe('draft');
  });

  it('Cancel with unsaved input asks too, and Tab then Enter on Discard closes the dialog', async () => {
    const user = userEvent.setup();
    const { onclose, onsubmit, name } = open();
    await user.type(name, 'draft');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const ask = screen.getByRole('alertdialog', { name: 'Discard your changes?' });
    within(ask).getByRole('button', { name: 'Keep editing' }).focus();
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(document.activeElement).toBe(within(ask).getByRole('button', { name: 'Discard' }));
    await user.keyboard('{Enter}');
    expect(onclose).toHaveBeenCalledTimes(1);
    expect(onsubmit).not.toHaveBeenCalled();
  });

  it('Enter in a text field submits; Enter in a textarea writes a new line', async () => {
    const user = userEvent.setup();
    const { onsubmit, name } = open();
    const notes = screen.getByRole('textbox', { name: 'Notes' }) as HTMLTextAreaElement;
    await user.type(notes, 'one{Enter}two');
    expect(notes.value).toBe('one\ntwo');
    expect(onsubmit).not.toHaveBeenCalled();
    await user.type(name, 'x{Enter}');
    expect(onsubmit).toHaveBeenCalledTimes(1);
  });

  it('Enter on a checkbox submits, as a desktop dialog does', async () => {
    const user = userEvent.setup();
    const { onsubmit } = open();
    screen.getByRole('checkbox', { name: 'Agree' }).focus();
    await user.keyboard('{Enter}');
    expect(onsubmit).toHaveBeenCalledTimes(1);
  });

  it('Escape that ends an input method composition does not close the dialog', async () => {
    const { onclose, name } = open();
    name.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', isComposing: true, bubbles: true, cancelable: true }));
    expect(onclose).not.toHaveBeenCalled();
  });

  it('the reason the main button waits for is written beside it and describes it', () => {
    open('Give it a name first.');
    const reason = screen.getByText('Give it a name first.');
    expect(screen.getByRole('button', { name: 'OK' }).getAttribute('aria-describedby')).toBe(reason.id);
  });
});

describe('ConfirmDialog', () => {
  it('starts on Cancel, so Enter alone never takes the step', async () => {
    const user = userEvent.setup();
    const onconfirm = vi.fn();
    const onclose = vi.fn();
    render(ConfirmDialog, { title: 'Remove Demo?', message: 'It goes for good.', confirmLabel: 'Remove', onconfirm, onclose });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    await user.keyboard('{Enter}');
    expect(onconfirm).not.toHaveBeenCalled();
    expect(onclose).toHaveBeenCalledTimes(1);
  });
});
