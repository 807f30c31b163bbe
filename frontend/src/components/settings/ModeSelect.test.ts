// Component test of the shared select of a tool's mode (ToolPermissions and
// ConnectedApps use it; their own tests cover it in place).
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import ModeSelect from './ModeSelect.svelte';

describe('ModeSelect', () => {
  it('offers the default as labelled and Ask / Allow / Deny, and says which one the person chose', async () => {
    const onchange = vi.fn();
    render(ModeSelect, { value: 'deny', label: 'Setting for x', defaultLabel: 'Same as the server (Ask)', onchange });
    const sel = screen.getByRole('combobox', { name: 'Setting for x' }) as HTMLSelectElement;
    expect(sel.value).toBe('deny');
    expect([...sel.options].map((o) => [o.value, o.textContent])).toEqual([
      ['default', 'Same as the server (Ask)'],
      ['ask', 'Ask each time'],
      ['allow', 'Allow'],
      ['deny', 'Deny'],
    ]);
    await userEvent.setup().selectOptions(sel, 'allow');
    expect(onchange).toHaveBeenCalledWith('allow');
  });

  it('can be disabled', () => {
    render(ModeSelect, { value: 'default', label: 'S', defaultLabel: 'D', disabled: true, onchange: () => {} });
    expect((screen.getByRole('combobox', { name: 'S' }) as HTMLSelectElement).disabled).toBe(true);
  });
});
