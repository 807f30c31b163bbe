// Component tests of the model provider editor. api.ts is mocked here: these
// tests check what the dialog does with Go's answers (app/providers_test.go
// tests Go's side against stand-in endpoints).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { ProviderInput } from '../../lib/api';
import ProviderEditor from './ProviderEditor.svelte';
import { presets, providerView } from '../../test/fixtures';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

function saveButton() {
  return screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
}

function open(provider: ReturnType<typeof providerView> | null = null, onsaved = vi.fn(), onclose = vi.fn()) {
  render(ProviderEditor, { provider, presets: presets(), onsaved, onclose, debounceMs: 0 });
  return { onsaved, onclose };
}

describe('ProviderEditor', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    // Go's rules, as far as these tests need them.
    mocked.validateProvider.mockImplementation(async (_id: string, input: ProviderInput) => {
      const errs: Record<string, string> = {};
      if (!input.name.trim()) errs.name = 'Give the provider a name.';
      if (!/^https?:\/\/./.test(input.baseUrl)) errs.baseUrl = 'The base URL must be an http or https address.';
      if (!input.model.trim()) errs.model = 'Choose a model; Test lists the models the provider offers.';
      if (input.apiKey && input.clearKey) errs.apiKey = 'Either give a new API key or remove the saved one, not both.';
      return errs;
    });
  });

  it('offers the local presets first, and choosing Ollama fills the base URL, the kind and the name', async () => {
    const user = userEvent.setup();
    open();
    const picker = screen.getByLabelText('Preset') as HTMLSelectElement;
    const groups = [...picker.querySelectorAll('optgroup')].map((g) => g.label);
    expect(groups).toEqual(['On this computer', 'Online services']);
    expect(picker.querySelector('optgroup')?.textContent).toContain('Ollama');

    await user.selectOptions(picker, 'anthropic');
    expect((screen.getByLabelText('Kind') as HTMLSelectElement).value).toBe('anthropic');

    await user.selectOptions(picker, 'ollama');
    expect((screen.getByLabelText('Base URL') as HTMLInputElement).value).toBe('http://127.0.0.1:11434/v1');
    expect((screen.getByLabelText('Kind') as HTMLSelectElement).value).toBe('openai');
    // The name followed the preset, as the person had not written one.
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Ollama');
    expect(screen.getByText(/Ollama runs on this computer and needs no API key/)).toBeTruthy();
  });

  it("Test lists the endpoint's models, and picking one fills the model", async () => {
    const user = userEvent.setup();
    mocked.testProvider.mockResolvedValue({
      models: [
        { id: 'qwen3:8b', displayName: '' },
        { id: 'deepseek-r1:7b', displayName: 'DeepSeek R1 7B' },
      ],
    });
    open();
    await user.selectOptions(screen.getByLabelText('Preset'), 'ollama');
    await user.click(screen.getByRole('button', { name: 'Test' }));

    const offered = (await screen.findByLabelText('The provider offers 2 models')) as HTMLSelectElement;
    expect([...offered.options].map((o) => o.textContent)).toEqual(['qwen3:8b', 'DeepSeek R1 7B (deepseek-r1:7b)']);
    expect(mocked.testProvider).toHaveBeenCalledWith('', expect.objectContaining({ preset: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1' }));

    await user.selectOptions(offered, 'deepseek-r1:7b');
    expect((screen.getByLabelText('Model') as HTMLInputElement).value).toBe('deepseek-r1:7b');
  });

  it("a problem found by Test is shown as Go's sentence", async () => {
    const user = userEvent.setup();
    mocked.testProvider.mockResolvedValue({
      models: [],
      problem: {
        key: 'llm.error.unreachableSoftware',
        args: { address: '127.0.0.1:11434', software: 'Ollama' },
        text: 'Nothing answers at 127.0.0.1:11434 — is Ollama running?',
      },
    });
    open();
    await user.selectOptions(screen.getByLabelText('Preset'), 'ollama');
    await user.click(screen.getByRole('button', { name: 'Test' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Nothing answers at 127.0.0.1:11434 — is Ollama running?');
    expect(screen.queryByLabelText(/The provider offers/)).toBeNull();
  });

  it('says beside Save what is missing while Go finds the input incomplete, with errors beside the fields', async () => {
    const user = userEvent.setup();
    open();
    await waitFor(() => expect(mocked.validateProvider).toHaveBeenCalled());
    expect(screen.getByText('To save, fill in: Name, Base URL, Model.')).toBeTruthy();

    const baseUrl = screen.getByLabelText('Base URL');
    await user.type(baseUrl, 'ftp://x');
    const err = await screen.findByText('The base URL must be an http or https address.');
    expect(baseUrl.getAttribute('aria-invalid')).toBe('true');
    expect(baseUrl.getAttribute('aria-describedby')).toBe(err.id);
    expect(screen.getByText('To save, fill in: Name, Model.')).toBeTruthy();
  });

  it("an error leaves its field as soon as the person changes it, before Go's next answer", async () => {
    const user = userEvent.setup();
    render(ProviderEditor, { provider: null, presets: presets(), onclose: () => {}, debounceMs: 60_000 });
    await waitFor(() => expect(mocked.validateProvider).toHaveBeenCalledTimes(1));
    const baseUrl = screen.getByLabelText('Base URL');
    await user.click(baseUrl);
    await user.tab();
    expect(await screen.findByText('The base URL must be an http or https address.')).toBeTruthy();
    await user.type(baseUrl, 'h');
    expect(screen.queryByText('The base URL must be an http or https address.')).toBeNull();
    expect(baseUrl.getAttribute('aria-invalid')).toBeNull();
  });

  it('Enter right after fixing the model saves with what is on screen, and an incomplete form shows its problems instead', async () => {
    const user = userEvent.setup();
    const saved = providerView('p1', 'Ollama');
    mocked.addProvider.mockResolvedValue(saved);
    const onsaved = vi.fn();
    render(ProviderEditor, { provider: null, presets: presets(), onsaved, onclose: () => {}, debounceMs: 60_000 });
    await waitFor(() => expect(mocked.validateProvider).toHaveBeenCalledTimes(1));

    await user.selectOptions(screen.getByLabelText('Preset'), 'ollama');
    await user.click(screen.getByLabelText('Name'));
    await user.keyboard('{Enter}');
    const model = screen.getByLabelText('Model');
    expect(await screen.findByText('Choose a model; Test lists the models the provider offers.')).toBeTruthy();
    expect(document.activeElement).toBe(model);
    expect(mocked.addProvider).not.toHaveBeenCalled();

    await user.type(model, 'qwen3:8b{Enter}');
    await waitFor(() => expect(onsaved).toHaveBeenCalledWith(saved));
    expect(mocked.addProvider).toHaveBeenCalledWith(expect.objectContaining({ preset: 'ollama', model: 'qwen3:8b' }));
  });

  it('Escape with unsaved input asks first, and Discard closes without saving', async () => {
    const user = userEvent.setup();
    const { onclose } = open();
    await user.type(screen.getByLabelText('Name'), 'Mine');
    await user.keyboard('{Escape}');
    const ask = screen.getByRole('alertdialog', { name: 'Discard your changes?' });
    expect(onclose).not.toHaveBeenCalled();
    await user.click(within(ask).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(onclose).toHaveBeenCalled());
    expect(mocked.addProvider).not.toHaveBeenCalled();
  });

  it('Save sends the input, with the API key typed into a password field', async () => {
    const user = userEvent.setup();
    const saved = providerView('p1', 'DeepSeek', { preset: 'deepseek', keyHint: 'sk-…a1b2' });
    mocked.addProvider.mockResolvedValue(saved);
    const { onsaved, onclose } = open();

    await user.selectOptions(screen.getByLabelText('Preset'), 'deepseek');
    const key = screen.getByLabelText(/API key/) as HTMLInputElement;
    expect(key.type).toBe('password');
    await user.type(key, 'sk-secret-a1b2');
    await user.type(screen.getByLabelText('Model'), 'deepseek-chat');
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await user.click(saveButton());

    await waitFor(() => expect(onsaved).toHaveBeenCalledWith(saved));
    expect(mocked.addProvider).toHaveBeenCalledWith({
      name: 'DeepSeek',
      kind: 'openai',
      preset: 'deepseek',
      baseUrl: 'https://api.deepseek.com',
      model: 'deepseek-chat',
      apiKey: 'sk-secret-a1b2',
      clearKey: false,
      quirks: {},
    });
    expect(onclose).toHaveBeenCalled();
  });

  it('editing keeps the saved key unless one is typed, never shows it, and can remove it', async () => {
    const user = userEvent.setup();
    const p = providerView('p1', 'DeepSeek', { preset: 'deepseek', baseUrl: 'https://api.deepseek.com', keyHint: 'sk-…a1b2' });
    mocked.updateProvider.mockResolvedValue(p);
    open(p);

    expect(screen.getByRole('heading', { name: 'Edit DeepSeek' })).toBeTruthy();
    expect((screen.getByLabelText(/API key/) as HTMLInputElement).value).toBe('');
    expect(screen.getByText('A key is saved (sk-…a1b2). Leave this empty to keep it.')).toBeTruthy();

    await user.click(screen.getByRole('checkbox', { name: 'Remove the saved key' }));
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await user.click(saveButton());
    await waitFor(() =>
      expect(mocked.updateProvider).toHaveBeenCalledWith('p1', {
        name: 'DeepSeek',
        kind: 'openai',
        preset: 'deepseek',
        baseUrl: 'https://api.deepseek.com',
        model: 'qwen3:8b',
        apiKey: '',
        clearKey: true,
        quirks: {},
      }),
    );
  });

  it('a provider set up by hand can be marked as reading images, and Save sends that', async () => {
    const user = userEvent.setup();
    mocked.addProvider.mockResolvedValue(providerView('p2', 'LLaVA'));
    open();
    await user.type(screen.getByLabelText('Name'), 'LLaVA');
    await user.type(screen.getByLabelText('Base URL'), 'http://127.0.0.1:8080/v1');
    await user.type(screen.getByLabelText('Model'), 'llava');
    const images = screen.getByRole('checkbox', { name: 'The model reads images' }) as HTMLInputElement;
    expect(images.checked).toBe(false);
    expect(images.disabled).toBe(false);
    await user.click(images);
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await user.click(saveButton());
    await waitFor(() => expect(mocked.addProvider).toHaveBeenCalledWith(expect.objectContaining({ quirks: { images: true } })));
  });

  it("a preset whose models read images shows the box ticked and fixed, with the preset's name", async () => {
    const user = userEvent.setup();
    open();
    await user.selectOptions(screen.getByLabelText('Preset'), 'anthropic');
    const images = screen.getByRole('checkbox', { name: 'The model reads images' }) as HTMLInputElement;
    expect(images.checked).toBe(true);
    expect(images.disabled).toBe(true);
    expect(screen.getByText("Anthropic's models read images: those attached to a message are sent to them.")).toBeTruthy();
    // Another preset leaves the choice to the person again.
    await user.selectOptions(screen.getByLabelText('Preset'), 'ollama');
    expect(images.disabled).toBe(false);
    expect(images.checked).toBe(false);
  });

  it('editing shows the saved images setting and can turn it off', async () => {
    const user = userEvent.setup();
    const p = providerView('p1', 'LLaVA', { quirks: { images: true } });
    mocked.updateProvider.mockResolvedValue(p);
    open(p);
    const images = screen.getByRole('checkbox', { name: 'The model reads images' }) as HTMLInputElement;
    expect(images.checked).toBe(true);
    await user.click(images);
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await user.click(saveButton());
    await waitFor(() => expect(mocked.updateProvider).toHaveBeenCalledWith('p1', expect.objectContaining({ quirks: {} })));
  });

  it('shows why saving failed and stays open', async () => {
    const user = userEvent.setup();
    mocked.updateProvider.mockRejectedValue(new Error('the keyring refused the key'));
    const { onclose } = open(providerView('p1', 'Local'));
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await user.click(saveButton());
    expect(await screen.findByText('Could not save: the keyring refused the key')).toBeTruthy();
    expect(onclose).not.toHaveBeenCalled();
  });
});
