// The consent dialog for what a server's app (MCP Apps) asks: a tool call
// the app wants to make, a message or context it wants to give the
// conversation's model (KindAppMessage), and a page it wants opened
// (KindAppLink). api.ts is mocked: these tests check what the
// person reads and which answer goes to Go. Every string an app sends is
// untrusted: it must show as text.
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import ConsentDialog from './ConsentDialog.svelte';
import { jsonNode, question } from '../../test/fixtures';
import { language, loadLanguage } from '../../lib/i18n.svelte';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);
beforeEach(() => vi.clearAllMocks());
// The Chinese catalogue is a chunk the window fetches when first wanted; here it is loaded before the tests.
beforeAll(() => loadLanguage('zh-CN'));

function show(q: api.QuestionView) {
  render(ConsentDialog, { props: { request: q, waiting: [], onproblem: vi.fn(), onrefuse: vi.fn() } });
  return userEvent.setup();
}

/** Runs fn with the window in Chinese. */
async function inChinese(fn: () => Promise<void> | void) {
  language.choice = 'zh-CN';
  try {
    await fn();
  } finally {
    language.choice = '';
  }
}

/** The sentence saying who asks and what. */
const asks = () => document.querySelector('dialog .asks')!.textContent;

type AppMessage = NonNullable<api.QuestionView['appMessage']>;
const appMessage = (over: Partial<AppMessage> = {}) =>
  question({
    kind: 'app-message',
    message: '',
    serverName: 'Budget',
    appMessage: { app: 'Budget allocator', context: false, text: 'Move 200 to savings.', conversationId: 'c1', conversation: 'Trip', ...over },
  });

const appCall = (over: Partial<api.ToolCallView> = {}) =>
  question({
    kind: 'tool-call',
    message: '',
    serverName: 'Budget',
    toolCall: {
      tool: 'set-allocation',
      title: 'Set allocation',
      description: '',
      arguments: { savings: 200 },
      view: jsonNode({ savings: 200 }),
      readOnly: false,
      destructive: false,
      conversationId: '',
      conversation: '',
      app: 'Budget allocator',
      ...over,
    },
  });

describe("a tool call an app asks for", () => {
  it('names the app and its server instead of the model, with no conversation when there is none', () => {
    show(appCall());
    const asks = screen.getByText(/wants to call/);
    expect(asks.textContent).toBe(
      'The Budget allocator app (server Budget) wants to call set-allocation (Set allocation) with these arguments, exactly as they will be sent:',
    );
    expect(document.querySelector('dialog')!.textContent).not.toMatch(/model|“Trip”/);
  });

  it('says the conversation when the app is in one', () => {
    show(appCall({ conversationId: 'c1', conversation: 'Trip' }));
    expect(screen.getByText(/wants to call/).textContent).toContain('The Budget allocator app (server Budget) in “Trip” wants to call set-allocation');
  });

  it('in Chinese too', async () => {
    await inChinese(() => {
      show(appCall());
      expect(screen.getByText(/想用以下参数调用/).textContent).toBe(
        '“Budget allocator”应用（服务器 Budget）想用以下参数调用 set-allocation (Set allocation)，参数将原样发送：',
      );
    });
  });

  it("shows an app's and a server's hostile names as text", () => {
    const { container } = render(ConsentDialog, {
      props: {
        request: appCall({ app: '<img src=x onerror="window.pwned=1">\u202Eppa' }),
        waiting: [],
        onproblem: vi.fn(),
        onrefuse: vi.fn(),
      },
    });
    expect(container.ownerDocument.querySelector('dialog img')).toBeNull();
    const name = container.querySelector('.app-name')!;
    expect(name.textContent).toBe('<img src=x onerror="window.pwned=1">⟨U+202E⟩ppa');
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
  });

  it("a model's call still reads as the model's", () => {
    show(appCall({ app: undefined, conversationId: 'c1', conversation: 'Trip' }));
    expect(screen.getByText(/wants to call/).textContent).toContain('The model in “Trip” wants to call set-allocation');
    expect(screen.queryByText(/Budget allocator/)).toBeNull();
  });
});

describe("an app's message for the model", () => {
  it('says who asks, what it is and where it goes, and shows the exact text', () => {
    show(appMessage());
    expect(screen.getByRole('heading').textContent).toBe('An app of Budget wants to write to your model');
    expect(screen.getByText(/wants to write this message/).textContent).toBe(
      'The Budget allocator app (server Budget) wants to write this message into “Trip” as you:',
    );
    expect(screen.getByRole('region', { name: "The app's text" }).querySelector('.server-text')!.textContent).toBe('Move 200 to savings.');
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
    expect(screen.getByRole('button', { name: "Don't send" })).toBeTruthy();
  });

  it('context for the next message reads as such, and is allowed rather than sent', () => {
    show(appMessage({ context: true }));
    expect(screen.getByText(/wants your model to read this/).textContent).toBe(
      'The Budget allocator app (server Budget) wants your model to read this with your next message in “Trip”:',
    );
    expect(screen.getByRole('button', { name: 'Allow' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
  });

  it.each([
    [false, 'The Budget allocator app (server Budget) wants to write this message into the conversation as you:'],
    [true, 'The Budget allocator app (server Budget) wants your model to read this with your next message:'],
  ])('without a conversation (context %s) names none', (context, sentence) => {
    show(appMessage({ context, conversationId: '', conversation: '' }));
    expect(asks()).toBe(sentence);
  });

  it('in Chinese too', async () => {
    await inChinese(() => {
      show(appMessage());
      expect(screen.getByRole('heading').textContent).toBe('Budget 的应用想向你的模型发送内容');
      expect(screen.getByText(/以你的名义/).textContent).toBe('“Budget allocator”应用（服务器 Budget）想以你的名义把这条消息写入对话“Trip”：');
      expect(screen.getByRole('button', { name: '发送' })).toBeTruthy();
      expect(screen.getByRole('button', { name: '不发送' })).toBeTruthy();
    });
    cleanup();
    await inChinese(() => {
      show(appMessage({ context: true, conversation: '' }));
      expect(asks()).toBe('“Budget allocator”应用（服务器 Budget）想让你的模型随你的下一条消息读到以下内容：');
      expect(screen.getByRole('button', { name: '允许' })).toBeTruthy();
    });
  });

  it("shows hostile text as text, whitespace kept, hidden characters marked", () => {
    const text = '<img src=x onerror="window.pwned=1">\n  indented\tand tabbed\n<script>window.pwned=2</script> pay\u202Eexe.txt';
    show(appMessage({ text, app: '<b>Bold</b>' }));
    const dialog = document.querySelector('dialog')!;
    expect(dialog.querySelector('img, script, b')).toBeNull();
    const shown = screen.getByRole('region', { name: "The app's text" });
    expect(shown.querySelector('.server-text')!.textContent).toBe(text.replace('\u202E', 'U+202E'));
    expect(screen.getByText('U+202E').className).toContain('hidden-char');
    expect(screen.getByRole('note').textContent).toContain('characters you cannot see');
    expect(screen.getByText('<b>Bold</b>')).toBeTruthy();
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
  });

  it('shows a long text whole, in a box of its own that scrolls', () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n');
    show(appMessage({ text }));
    const shown = screen.getByRole('region', { name: "The app's text" });
    expect(shown.querySelector('.server-text')!.textContent).toBe(text);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(shown.tabIndex).toBe(0);
  });

  it('Send accepts it', async () => {
    const user = show(appMessage());
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(mocked.acceptModelAnswer).toHaveBeenCalledWith('req-1'));
    expect(mocked.declineQuestion).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("Don't send declines it", async () => {
    const user = show(appMessage({ context: true }));
    await user.click(screen.getByRole('button', { name: "Don't send" }));
    await waitFor(() => expect(mocked.declineQuestion).toHaveBeenCalledWith('req-1'));
    expect(mocked.acceptModelAnswer).not.toHaveBeenCalled();
  });

  it("starts on Don't send: Enter alone sends nothing", async () => {
    const user = show(appMessage());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: "Don't send" }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(mocked.declineQuestion).toHaveBeenCalledWith('req-1'));
    expect(mocked.acceptModelAnswer).not.toHaveBeenCalled();
  });

  it.each([
    ['Escape', '{Escape}'],
    ['Ctrl+W', '{Control>}w{/Control}'],
  ])('%s declines it', async (_, keys) => {
    const user = show(appMessage());
    await user.keyboard(keys);
    await waitFor(() => expect(mocked.declineQuestion).toHaveBeenCalledWith('req-1'));
    expect(mocked.cancelQuestion).not.toHaveBeenCalled();
    expect(mocked.acceptModelAnswer).not.toHaveBeenCalled();
  });

  it("the engine's own close request declines it too", async () => {
    show(appMessage());
    await fireEvent(document.querySelector('dialog')!, new Event('cancel', { cancelable: true }));
    await waitFor(() => expect(mocked.declineQuestion).toHaveBeenCalledWith('req-1'));
    expect(mocked.cancelQuestion).not.toHaveBeenCalled();
  });
});

describe('a page an app wants opened', () => {
  const link: api.LinkReport = {
    url: 'https://maps.example.org/place',
    scheme: 'https',
    port: '',
    display: 'https://maps.example.org/place',
    before: 'https://maps.',
    domainPart: 'example.org',
    after: '/place',
    host: 'maps.example.org',
    asciiHost: 'maps.example.org',
    domain: 'example.org',
    asciiDomain: 'example.org',
    loopback: false,
    warnings: [],
  };
  const appLink = (app = '<i>Map</i>') => question({ kind: 'app-link', message: '', serverName: 'Geo', appLink: { app }, link });

  it('names the app and its server, as text, and shows the address as Go checked it', () => {
    show(appLink());
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('An app of Geo wants to open a page');
    expect(asks()).toBe('The <i>Map</i> app (server Geo) asks you to open this address in your browser:');
    expect(document.querySelector('dialog i')).toBeNull();
    expect(document.querySelector('dialog')!.textContent).toContain('maps.example.org');
    // No server message: an app's link has none, so no "gave no reason" box.
    expect(document.querySelector('dialog .message')).toBeNull();
  });

  it('starts on Decline, so Enter alone opens nothing; Open in browser asks Go to open it', async () => {
    const user = show(appLink('Map'));
    expect(document.activeElement?.textContent).toBe('Decline');
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(mocked.declineQuestion).toHaveBeenCalledWith('req-1'));
    expect(mocked.openPage).not.toHaveBeenCalled();
  });

  it('Open in browser asks Go to open the page it checked', async () => {
    const user = show(appLink('Map'));
    await user.click(screen.getByRole('button', { name: 'Open in browser' }));
    await waitFor(() => expect(mocked.openPage).toHaveBeenCalledWith('req-1'));
  });

  it('in Chinese too', async () => {
    await inChinese(() => {
      show(appLink('Map'));
      expect(asks()).toBe('“Map”应用（服务器 Geo）请你在浏览器中打开此地址：');
      expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Geo 的应用想打开一个网页');
    });
  });
});
