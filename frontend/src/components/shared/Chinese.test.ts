// The window in Simplified Chinese: with the language set to zh-CN the
// components speak Chinese around the server's text, which stays as written,
// and Go's sentences render from the catalogue in Chinese whatever Go's own
// language was. Switching back re-renders without remounting.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import * as api from '../../lib/api';
import { language, loadLanguage } from '../../lib/i18n.svelte';
import { servers } from '../../lib/servers.svelte';
import ConsentDialog from '../consent/ConsentDialog.svelte';
import ServerList from '../servers/ServerList.svelte';
import SettingsPane from '../settings/SettingsPane.svelte';
import JsonTree from './JsonTree.svelte';
import userEvent from '@testing-library/user-event';
import { field, jsonNode, question, server } from '../../test/fixtures';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

afterEach(() => {
  language.choice = '';
});

const hint = (key: string, args: Record<string, unknown>, text: string) => ({ key, args, text });

// The Chinese catalogue is a chunk the window fetches when first wanted; here it is loaded before the tests.
beforeAll(() => loadLanguage('zh-CN'));

describe('in Simplified Chinese', () => {
  it('the consent dialog: the title around the server name, the secret warning, Go’s hints, the buttons', () => {
    language.choice = 'zh-CN';
    render(ConsentDialog, {
      props: {
        request: question({
          serverName: 'My bank helper',
          message: 'Confirm the transfer.',
          fields: [
            field('pin', 'text', {
              label: 'Bank PIN',
              required: true,
              hints: [hint('forms.hint.length.range', { min: 4, max: 6 }, '4 to 6 characters.')],
            }),
          ],
          secretFields: ['pin'],
        }),
        waiting: [{ id: 'w1', serverId: 's1', serverName: 'My bank helper', message: 'again', receivedAt: '' } as api.WaitingView],
        onproblem: vi.fn(),
        onrefuse: vi.fn(),
      },
    });
    expect(screen.getByRole('heading').textContent).toBe('My bank helper 请你提供信息');
    expect(screen.getByText('Confirm the transfer.')).toBeTruthy();
    expect(screen.getByText('此字段似乎在索要密码、密钥或其他机密信息：“Bank PIN”。')).toBeTruthy();
    expect(screen.getByText('4 到 6 个字符。')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'My bank helper 另有 1 个请求在等待' })).toBeTruthy();
    for (const name of ['取消', '提交']) expect(screen.getByRole('button', { name })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: '拒绝' }).length).toBeGreaterThan(0);
  });

  it('a JSON tree counts keys and items in Chinese; the keys themselves stay as the server wrote them', () => {
    language.choice = 'zh-CN';
    const { container } = render(JsonTree, { props: { node: jsonNode({ city: 'Lisbon', days: [1, 2, 3], one: ['x'] }) } });
    const summaries = [...container.querySelectorAll('.summary')].map((el) => el.textContent);
    expect(summaries).toEqual(['{3 个键}', '[3 项]', '[1 项]']);
    expect(container.textContent).toContain('city');
    language.choice = 'en';
    flushSync();
    expect([...container.querySelectorAll('.summary')].map((el) => el.textContent)).toEqual(['{3 keys}', '[3 items]', '[1 item]']);
  });

  it('the servers pane follows a change of language at once', () => {
    servers.set([server('s1', 'Alpha', { state: 'error', message: hint('mcp.status.commandNotFound', { command: 'alpha' }, 'command not found: alpha') })]);
    render(ServerList);
    expect(screen.getByRole('button', { name: 'Add server' })).toBeTruthy();
    expect(screen.getByText('command not found: alpha')).toBeTruthy();
    language.choice = 'zh-CN';
    flushSync();
    expect(screen.getByRole('button', { name: '添加服务器' })).toBeTruthy();
    expect(screen.getByText('找不到命令：alpha')).toBeTruthy();
    expect(screen.getByText('出错')).toBeTruthy();
  });

  it('Settings → Language switches the window and tells Go, and back', async () => {
    const user = userEvent.setup();
    mocked.appInfo.mockResolvedValue({ version: '1', dataDir: '/d', dbPath: '/d/gatehouse.db', keyring: true });
    mocked.getSettings.mockResolvedValue({ elicitationTimeoutMinutes: 10, toolCallTimeoutSeconds: 60, rememberAnswers: false });
    render(SettingsPane);
    await user.selectOptions(await screen.findByLabelText('Language of the window'), 'zh-CN');
    expect(mocked.setLanguage).toHaveBeenCalledWith('zh-CN');
    expect(await screen.findByRole('heading', { name: '设置', level: 1 })).toBeTruthy();
    // The side list of sections speaks Chinese too.
    expect(screen.getByRole('tab', { name: '常规', selected: true })).toBeTruthy();
    expect(screen.getByRole('tab', { name: '来自服务器的请求' })).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('界面语言'), '');
    expect(mocked.setLanguage).toHaveBeenLastCalledWith('');
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 })).toBeTruthy();
  });

  it('a choice Go refuses goes back and says why', async () => {
    const user = userEvent.setup();
    mocked.appInfo.mockResolvedValue({ version: '1', dataDir: '/d', dbPath: '/d/gatehouse.db', keyring: true });
    mocked.getSettings.mockResolvedValue({ elicitationTimeoutMinutes: 10, toolCallTimeoutSeconds: 60, rememberAnswers: false });
    mocked.setLanguage.mockRejectedValueOnce(new Error('the data file is read-only'));
    render(SettingsPane);
    await user.selectOptions(await screen.findByLabelText('Language of the window'), 'zh-CN');
    expect((await screen.findByRole('alert')).textContent).toBe('the data file is read-only');
    expect(language.choice).toBe('');
    expect(screen.getByRole('heading', { name: 'Settings', level: 1 })).toBeTruthy();
  });
});
