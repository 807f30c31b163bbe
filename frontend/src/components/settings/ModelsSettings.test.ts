// Component tests of Settings → Models. api.ts is mocked; Go's side is
// tested in app/providers_test.go.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { ProviderList, ProviderView } from '../../lib/api';
import { tick } from 'svelte';
import ModelsSettings from './ModelsSettings.svelte';
import { providers } from '../../lib/providers.svelte';
import { presets, providerList, providerView } from '../../test/fixtures';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

function row(name: string) {
  return screen.getByRole('listitem', { name });
}

describe('ModelsSettings', () => {
  let list: ProviderView[];

  beforeEach(() => {
    vi.clearAllMocks();
    list = [
      providerView('p1', 'Ollama', { preset: 'ollama', model: 'qwen3:8b', isDefault: true }),
      providerView('p2', 'DeepSeek', {
        preset: 'deepseek',
        baseUrl: 'https://api.deepseek.com',
        model: 'deepseek-chat',
        keyHint: 'sk-…a1b2',
      }),
    ];
    mocked.providerPresets.mockResolvedValue(presets());
    mocked.listProviders.mockImplementation(async () => providerList(list));
  });

  it('lists each provider with its model, base URL, masked key and the Default badge', async () => {
    render(ModelsSettings);
    await screen.findByRole('listitem', { name: 'DeepSeek' });

    const deepseek = row('DeepSeek');
    expect(within(deepseek).getByText('deepseek-chat')).toBeTruthy();
    expect(within(deepseek).getByText('https://api.deepseek.com')).toBeTruthy();
    expect(within(deepseek).getByText('sk-…a1b2')).toBeTruthy();
    expect(within(deepseek).queryByText('Default')).toBeNull();

    const ollama = row('Ollama');
    expect(within(ollama).getByText('Default')).toBeTruthy();
    expect(within(ollama).getByText('None saved')).toBeTruthy();
    expect(within(ollama).queryByRole('button', { name: 'Make default' })).toBeNull();
  });

  it('Add opened before the presets arrive offers them once they do', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    mocked.providerPresets.mockImplementation(() => held.then(() => presets()));
    providers.presets = []; // the window's first visit to Models: nothing read yet
    const user = userEvent.setup();
    render(ModelsSettings);
    await user.click(screen.getByRole('button', { name: 'Add a provider' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a model provider' });
    release();
    const preset = within(dialog).getByLabelText('Preset') as HTMLSelectElement;
    await waitFor(() => expect([...preset.options].map((o) => o.value)).toContain('ollama'));
    await user.selectOptions(preset, 'ollama');
    expect((within(dialog).getByLabelText('Base URL') as HTMLInputElement).value).toBe('http://127.0.0.1:11434/v1');
  });

  it('shows a saved key only as its hint, also in the editor', async () => {
    const user = userEvent.setup();
    render(ModelsSettings);
    await screen.findByRole('listitem', { name: 'DeepSeek' });
    await user.click(within(row('DeepSeek')).getByRole('button', { name: 'Edit' }));
    const key = screen.getByLabelText(/API key/) as HTMLInputElement;
    expect(key.type).toBe('password');
    expect(key.value).toBe('');
    expect(screen.getByText(/sk-…a1b2/, { selector: '.hint' })).toBeTruthy();
  });

  it('Remove asks first, and removes only after the person confirms', async () => {
    const user = userEvent.setup();
    render(ModelsSettings);
    await screen.findByRole('listitem', { name: 'DeepSeek' });

    await user.click(within(row('DeepSeek')).getByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove DeepSeek?' });
    expect(mocked.removeProvider).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(mocked.removeProvider).not.toHaveBeenCalled();

    await user.click(within(row('DeepSeek')).getByRole('button', { name: 'Remove' }));
    list = list.filter((p) => p.id !== 'p2');
    await user.click(within(screen.getByRole('dialog', { name: 'Remove DeepSeek?' })).getByRole('button', { name: 'Remove' }));
    expect(mocked.removeProvider).toHaveBeenCalledWith('p2');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'DeepSeek' })).toBeNull());
  });

  it('Make default tells Go and shows the badge on the new default', async () => {
    const user = userEvent.setup();
    render(ModelsSettings);
    await screen.findByRole('listitem', { name: 'DeepSeek' });
    mocked.setDefaultProvider.mockImplementation(async (id: string) => {
      list = list.map((p) => ({ ...p, isDefault: p.id === id }));
    });
    await user.click(within(row('DeepSeek')).getByRole('button', { name: 'Make default' }));
    expect(mocked.setDefaultProvider).toHaveBeenCalledWith('p2');
    await waitFor(() => expect(within(row('DeepSeek')).getByText('Default')).toBeTruthy());
    expect(within(row('Ollama')).queryByText('Default')).toBeNull();
  });

  it('shows the list each providers:changed event carries, without reading it again', async () => {
    let send: (l: ProviderList) => void = () => {};
    mocked.onProvidersChanged.mockImplementation((cb) => {
      send = cb;
      return () => {};
    });
    render(ModelsSettings);
    await screen.findByRole('listitem', { name: 'DeepSeek' });
    const older = providerList([providerView('p4', 'Old', { isDefault: true })]);
    send(providerList([providerView('p3', 'LM Studio', { isDefault: true })]));
    expect(await screen.findByRole('listitem', { name: 'LM Studio' })).toBeTruthy();
    expect(screen.queryByRole('listitem', { name: 'DeepSeek' })).toBeNull();
    // A list Go read before the one shown, arriving late, changes nothing.
    send(older);
    await tick();
    expect(screen.getByRole('listitem', { name: 'LM Studio' })).toBeTruthy();
    expect(screen.queryByRole('listitem', { name: 'Old' })).toBeNull();
    expect(mocked.listProviders).toHaveBeenCalledTimes(1);
  });

  it('says how to start when there is no provider', async () => {
    list = [];
    render(ModelsSettings);
    expect(await screen.findByText(/No model providers yet/)).toBeTruthy();
  });
});

// Issue 26: after saving a new provider the view jumped ~1,000 px up into a
// tool list. Now the saved provider's card is scrolled into view and its name
// has the focus once the editor closed, not the Add button at the top.
describe('ModelsSettings after a save', () => {
  it('keeps the view on the provider just added: its card scrolled into view, its name focused', async () => {
    const list = [providerView('p1', 'Ollama', { preset: 'ollama', model: 'qwen3:8b', isDefault: true })];
    mocked.providerPresets.mockResolvedValue(presets());
    mocked.listProviders.mockImplementation(async () => providerList(list));
    const added = providerView('p9', 'LM Studio', { preset: 'ollama', model: 'qwen3:8b' });
    mocked.addProvider.mockImplementation(async () => {
      list.push(added);
      return added;
    });
    const scrolled: Element[] = [];
    const before = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      const user = userEvent.setup();
      render(ModelsSettings);
      await screen.findByRole('listitem', { name: 'Ollama' });
      await user.click(screen.getByRole('button', { name: 'Add a provider' }));
      await user.selectOptions(screen.getByLabelText('Preset'), 'ollama');
      await user.clear(screen.getByLabelText('Name'));
      await user.type(screen.getByLabelText('Name'), 'LM Studio');
      await user.type(screen.getByLabelText('Model'), 'qwen3:8b{Enter}');
      const card = await screen.findByRole('listitem', { name: 'LM Studio' });
      await waitFor(() => expect(document.activeElement).toBe(within(card).getByRole('heading', { name: 'LM Studio' })));
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(scrolled).toContain(card);
    } finally {
      Element.prototype.scrollIntoView = before;
    }
  });
});
