// Component tests of the Prompts tab. api.ts is mocked: these tests check
// the arguments form, the suggestions it asks for, and that a preview shows
// the server's messages as text. End to end: e2e/resources.test.mjs.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import type { ContentView, PromptView } from '../../lib/api';
import { prompts } from '../../lib/prompts.svelte';
import { resources } from '../../lib/resources.svelte';
import PromptsView from './PromptsView.svelte';
import { server } from '../../test/fixtures';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const hostile = '<img src=x onerror="window.__pwned=1">';

const weekend: PromptView = {
  name: 'weekend_plan',
  title: 'Weekend plan',
  description: 'Plans a weekend in a city',
  arguments: [
    { name: 'city', title: 'City', description: 'Where to go', required: true },
    { name: 'pace', title: 'pace', description: '', required: false },
  ],
};
const simple: PromptView = { name: 'simple-prompt', title: 'simple-prompt', description: hostile, arguments: [] };

function content(over: Partial<ContentView>): ContentView {
  return { type: 'text', text: '', mimeType: '', data: '', uri: '', name: '', title: '', ...over };
}

async function show(capabilities = ['prompts', 'completions']) {
  mocked.listPrompts.mockResolvedValue([weekend, simple]);
  const user = userEvent.setup();
  const view = render(PromptsView, { server: server('s1', 'Demo', { capabilities }) });
  await screen.findByRole('navigation', { name: 'Prompts of Demo' });
  return { user, view };
}

describe('PromptsView', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    prompts.reset();
    resources.reset();
    delete (window as unknown as { __pwned?: number }).__pwned;
  });

  it('lists the prompts, their descriptions as text', async () => {
    const { view } = await show();
    expect(screen.getByText('2 prompts')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Weekend plan/ })).toBeTruthy();
    expect(view.container.querySelector('img')).toBeNull();
    expect(view.container.textContent).toContain(hostile);
  });

  it('shows a field per argument with the required ones marked', async () => {
    const { user } = await show();
    await user.click(screen.getByRole('button', { name: /Weekend plan/ }));
    const city = screen.getByRole('textbox', { name: /City/ });
    expect(city.getAttribute('aria-required')).toBe('true');
    expect(screen.getByText('Where to go')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /pace/ }).getAttribute('aria-required')).toBeNull();
    expect(screen.getAllByText('(required)')).toHaveLength(1);
  });

  it("suggests an argument's values from the server, given the others filled", async () => {
    mocked.completePrompt.mockResolvedValue({ values: ['relaxed', 'rushed'], hasMore: true, total: 12, offered: true });
    const { user } = await show();
    await user.click(screen.getByRole('button', { name: /Weekend plan/ }));
    await user.type(screen.getByRole('textbox', { name: /City/ }), 'Oslo');
    await user.type(screen.getByRole('textbox', { name: /pace/ }), 'r');
    const list = await screen.findByRole('list', { name: 'Suggestions for pace' });
    expect(mocked.completePrompt).toHaveBeenLastCalledWith('s1', 'weekend_plan', 'pace', 'r', { city: 'Oslo' });
    expect(screen.getByText('and 10 more: type to narrow them')).toBeTruthy();
    await user.click(within(list).getByRole('button', { name: 'relaxed' }));
    expect((screen.getByRole('textbox', { name: /pace/ }) as HTMLInputElement).value).toBe('relaxed');
  });

  it('asks for no suggestions when the server has no completions', async () => {
    const { user } = await show(['prompts']);
    await user.click(screen.getByRole('button', { name: /Weekend plan/ }));
    await user.type(screen.getByRole('textbox', { name: /City/ }), 'Os');
    await new Promise((r) => setTimeout(r, 300));
    expect(mocked.completePrompt).not.toHaveBeenCalled();
  });

  it('previews the messages: who says each, and the content as text, never HTML', async () => {
    mocked.getPrompt.mockResolvedValue({
      description: 'A plan',
      messages: [
        { role: 'user', content: content({ text: `Plan Oslo ${hostile}` }) },
        { role: 'assistant', content: content({ type: 'image', mimeType: 'text/html', data: 'PGI+' }) },
        { role: 'user', content: content({ type: 'resource', uri: 'demo://note', text: hostile, readable: true }) },
      ],
    });
    const { user, view } = await show();
    await user.click(screen.getByRole('button', { name: /Weekend plan/ }));
    await user.type(screen.getByRole('textbox', { name: /City/ }), 'Oslo');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const messages = await screen.findByRole('region', { name: 'Messages the prompt makes' });
    expect(mocked.getPrompt).toHaveBeenCalledWith('s1', 'weekend_plan', { city: 'Oslo', pace: '' });
    const items = within(messages).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.role')?.textContent)).toEqual(['User', 'Assistant', 'User']);
    expect(items[0].textContent).toContain(`Plan Oslo ${hostile}`);
    expect(items[1].textContent).toContain('An image of type “text/html” is not shown.');
    expect(within(items[2]).getByRole('button', { name: 'Open in Gatehouse' })).toBeTruthy();
    expect(view.container.querySelector('img')).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it("says Go's sentence when a required argument is missing", async () => {
    const said = { key: 'prompts.error.missing', args: { prompt: 'weekend_plan', arguments: 'city' }, text: 'The prompt weekend_plan needs city' };
    mocked.getPrompt.mockRejectedValue(new api.GoError(said, said.text));
    const { user } = await show();
    await user.click(screen.getByRole('button', { name: /Weekend plan/ }));
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not get the prompt: The prompt weekend_plan needs city');
  });

  it('keeps the typed arguments and the preview when the tab is shown again', async () => {
    mocked.getPrompt.mockResolvedValue({ description: '', messages: [{ role: 'user', content: content({ text: 'Hello' }) }] });
    const { user, view } = await show();
    await user.click(screen.getByRole('button', { name: /Weekend plan/ }));
    await user.type(screen.getByRole('textbox', { name: /City/ }), 'Oslo');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    await screen.findByText('Hello');
    view.unmount();
    render(PromptsView, { server: server('s1', 'Demo', { capabilities: ['prompts'] }) });
    expect(((await screen.findByRole('textbox', { name: /City/ })) as HTMLInputElement).value).toBe('Oslo');
    expect(screen.getByText('Hello')).toBeTruthy();
    expect(mocked.listPrompts).toHaveBeenCalledTimes(1);
  });

  it('lists the prompts again when the server says they changed', async () => {
    let changed!: (id: string) => void;
    mocked.onPromptsChanged.mockImplementation((cb) => {
      changed = cb;
      return () => {};
    });
    const stop = prompts.start();
    await show();
    mocked.listPrompts.mockResolvedValue([{ ...simple, title: 'Brand new' }]);
    changed('s1');
    await waitFor(() => expect(screen.getByRole('button', { name: /Brand new/ })).toBeTruthy());
    expect(screen.queryByRole('button', { name: /Weekend plan/ })).toBeNull();
    stop();
  });
});
