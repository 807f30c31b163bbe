// The consent dialog for a tool call another app makes through the gateway
// (issue 25): it says which app asks, as the app claims to be and as the
// system says what launched it, all as text (never translated, never
// markup); "Allow" for the session names the app, not a conversation. api.ts
// is mocked: these tests check what the person reads and which answer goes
// to Go.
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import ConsentDialog from './ConsentDialog.svelte';
import { jsonNode, question } from '../../test/fixtures';
import { language, loadLanguage } from '../../lib/i18n.svelte';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);
beforeEach(() => vi.clearAllMocks());
beforeAll(() => loadLanguage('zh-CN'));

type Client = NonNullable<api.ToolCallView['client']>;
const gatewayCall = (client: Partial<Client> = {}) =>
  question({
    kind: 'tool-call',
    message: '',
    serverName: 'Bank',
    toolCall: {
      tool: 'send_payment',
      title: 'Send a payment',
      description: 'Sends money.',
      arguments: { to: 'ada' },
      view: jsonNode({ to: 'ada' }),
      readOnly: false,
      destructive: true,
      conversationId: '',
      conversation: '',
      client: { name: 'claude-code', version: '2.1.0', launcher: '/usr/bin/node', command: 'node /opt/claude/cli.js', pid: 42, ...client },
    },
  });

function show(q: api.QuestionView) {
  render(ConsentDialog, { props: { request: q, waiting: [], onproblem: vi.fn(), onrefuse: vi.fn() } });
  return userEvent.setup();
}

describe('a tool call another app makes through the gateway', () => {
  it('says another app asks, and shows what it claims and what launched it', () => {
    show(gatewayCall());
    expect(screen.getByText(/wants to call/).textContent).toBe(
      'Another app wants to call send_payment (Send a payment) of Bank through Gatehouse, with these arguments, exactly as they will be sent:',
    );
    const who = document.querySelector('[data-client]')!;
    expect(who.querySelector('.claimed')!.textContent).toBe('claude-code 2.1.0');
    expect(who.querySelector('.launcher')!.textContent).toBe('/usr/bin/node');
    expect(who.querySelector('.command')!.textContent).toBe('node /opt/claude/cli.js');
    expect(who.textContent).toContain('Started by (as the system reports)');
    expect(document.querySelector('dialog')!.textContent).not.toMatch(/model|conversation/);
  });

  it('shows a claimed name as text, and says when the launcher is unknown', () => {
    show(gatewayCall({ name: '<img src=x onerror=alert(1)>', launcher: '', command: '' }));
    const who = document.querySelector('[data-client]')!;
    expect(who.querySelector('img')).toBeNull();
    expect(who.querySelector('.claimed')!.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(who.querySelector('.launcher')!.textContent).toBe('unknown');
    expect(who.querySelector('.command')).toBeNull();
  });

  it('allows for the app’s session, not a conversation', async () => {
    const user = show(gatewayCall());
    await user.click(screen.getByRole('button', { name: 'Allow for this app until it disconnects' }));
    expect(mocked.allowToolCall).toHaveBeenCalledWith(expect.any(String), 'conversation');
  });

  it('says that Always allow is for this app alone (the chat and other apps still ask)', async () => {
    const user = show(gatewayCall());
    expect(screen.queryByRole('button', { name: 'Always allow this tool' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Always allow this tool for this app' }));
    expect(mocked.allowToolCall).toHaveBeenCalledWith(expect.any(String), 'always');
  });

  it('keeps the app’s own words untranslated in Chinese', () => {
    language.choice = 'zh-CN';
    try {
      show(gatewayCall());
      const who = document.querySelector('[data-client]')!;
      expect(who.textContent).toContain('启动它的程序（由系统报告）');
      expect(who.querySelector('.claimed')!.textContent).toBe('claude-code 2.1.0');
    } finally {
      language.choice = '';
    }
  });
});
