// The URL consent display (E19–E23). api.ts is mocked; the real core's link
// analysis is tested in Go (mcp/links_test.go) and end to end in e2e/.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import ConsentDialog from './ConsentDialog.svelte';
import LinkDisplay from './LinkDisplay.svelte';
import { msg, question } from '../../test/fixtures';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);

const evil: api.LinkReport = {
  url: 'https://accounts.google.com.evil.example/login?next=(a)',
  scheme: 'https',
  port: '',
  display: 'https://accounts.google.com.evil.example/login?next=(a)',
  before: 'https://accounts.google.com.',
  domainPart: 'evil.example',
  after: '/login?next=(a)',
  host: 'accounts.google.com.evil.example',
  asciiHost: 'accounts.google.com.evil.example',
  domain: 'evil.example',
  asciiDomain: 'evil.example',
  loopback: false,
  warnings: [],
};

const apple: api.LinkReport = {
  ...evil,
  url: 'https://xn--80ak6aa92e.com/',
  display: 'https://аррӏе.com/',
  before: 'https://',
  domainPart: 'аррӏе.com',
  after: '/',
  host: 'аррӏе.com',
  asciiHost: 'xn--80ak6aa92e.com',
  domain: 'аррӏе.com',
  asciiDomain: 'xn--80ak6aa92e.com',
  warnings: [
    { kind: 'idn', message: { key: 'linkcheck.warn.idn', args: { host: 'xn--80ak6aa92e.com' }, text: '' } },
    {
      kind: 'confusable',
      message: {
        key: 'linkcheck.warn.confusable',
        args: { scripts: { key: '', args: { items: [{ key: 'linkcheck.script.cyrillic', args: {}, text: '' }] }, text: '' }, name: 'apple.com' },
        text: '',
      },
    },
  ],
};

beforeEach(() => vi.clearAllMocks());

describe('LinkDisplay', () => {
  it('shows the whole URL as text and highlights the registrable domain (E20)', () => {
    const { container } = render(LinkDisplay, { props: { link: evil } });
    const url = screen.getByTestId('url');
    expect(url.textContent).toBe(evil.display);
    expect(url.querySelector('mark')!.textContent).toBe('evil.example');
    expect(container.querySelector('a')).toBeNull();
    expect(screen.getByText('evil.example', { selector: 'strong' })).toBeTruthy();
  });

  it('shows both forms of an international host and the warnings (E22)', () => {
    render(LinkDisplay, { props: { link: apple } });
    expect(screen.getByText('xn--80ak6aa92e.com')).toBeTruthy();
    expect(screen.getByText(/may imitate apple\.com/)).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Warnings about this address' }).children.length).toBe(2);
  });
});

describe('ConsentDialog in URL mode', () => {
  const request = () =>
    question({ kind: 'url', message: 'Sign in to continue.', link: evil, fields: [] });

  it('offers Open in browser, Decline and Cancel; Open asks Go to open it (E21, E23)', async () => {
    const user = userEvent.setup();
    const { container } = render(ConsentDialog, { props: { request: request(), onproblem: vi.fn(), onrefuse: vi.fn() } });
    expect(container.ownerDocument.querySelectorAll('a, img, link[rel], iframe').length).toBe(0);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open in browser' }));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Open in browser' }) as HTMLButtonElement).disabled).toBe(true));
    // Only the request's ID crosses to Go: the URL opened is the one Go recorded.
    expect(mocked.openPage).toHaveBeenCalledWith('req-1');
    expect(mocked.submitAnswer).not.toHaveBeenCalled();
  });

  it('keeps the dialog open with the reason when the browser cannot be opened', async () => {
    mocked.openPage.mockRejectedValueOnce(new Error('no program to open web pages was found (xdg-open)'));
    const user = userEvent.setup();
    render(ConsentDialog, { props: { request: request(), onproblem: vi.fn(), onrefuse: vi.fn() } });
    await user.click(screen.getByRole('button', { name: 'Open in browser' }));
    await screen.findByText(/no program to open web pages/);
    expect((screen.getByRole('button', { name: 'Open in browser' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('starts on Decline, so Enter alone never opens the page', async () => {
    const user = userEvent.setup();
    render(ConsentDialog, { props: { request: request(), onproblem: vi.fn(), onrefuse: vi.fn() } });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Decline' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(mocked.declineQuestion).toHaveBeenCalledWith('req-1'));
    expect(mocked.openPage).not.toHaveBeenCalled();
  });

  it.each([
    ['an address without warnings', evil, true],
    ['an address with warnings', apple, false],
  ])('Open in browser is the primary button only for %s', (_name, link, primary) => {
    render(ConsentDialog, { props: { request: question({ kind: 'url', message: 'Go.', link, fields: [] }), onproblem: vi.fn(), onrefuse: vi.fn() } });
    expect(screen.getByRole('button', { name: 'Open in browser' }).classList.contains('primary')).toBe(primary);
  });

  it('Decline declines', async () => {
    const user = userEvent.setup();
    render(ConsentDialog, { props: { request: request(), onproblem: vi.fn(), onrefuse: vi.fn() } });
    await user.click(screen.getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(mocked.declineQuestion).toHaveBeenCalledWith('req-1'));
    expect(mocked.openPage).not.toHaveBeenCalled();
  });
});

describe('ConsentDialog for a sign-in', () => {
  // Gatehouse's own start page: the authorization server's page is not
  // known before the person agrees (nothing is sent to it before).
  const start: api.LinkReport = {
    url: 'http://127.0.0.1:40123/start?s=abc',
    scheme: 'http',
    host: '127.0.0.1',
    asciiHost: '127.0.0.1',
    port: '40123',
    domain: '',
    asciiDomain: '',
    display: 'http://127.0.0.1:40123/start?s=abc',
    before: 'http://127.0.0.1:40123/start?s=abc',
    domainPart: '',
    after: '',
    loopback: true,
    warnings: [{ kind: 'loopback', message: msg('This address is on this computer.') }],
  };

  it('names the server and its address, shows no link, and Sign in asks Go to open the start page', async () => {
    const user = userEvent.setup();
    const request = question({
      kind: 'signin',
      serverName: 'Calendar',
      where: 'https://calendar.example/mcp',
      message: 'Calendar wants you to sign in at calendar.example.',
      link: start,
      fields: [],
    });
    render(ConsentDialog, { props: { request, onproblem: vi.fn(), onrefuse: vi.fn() } });
    expect(screen.getByText('https://calendar.example/mcp')).toBeTruthy();
    expect(screen.getByText(/contacts this server's authorization server only once you agree/)).toBeTruthy();
    expect(screen.queryByTestId('url')).toBeNull();
    const signIn = screen.getByRole('button', { name: 'Sign in in browser' });
    expect(signIn.classList.contains('primary')).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Decline' }));
    await user.click(signIn);
    await waitFor(() => expect(mocked.openPage).toHaveBeenCalledWith('req-1'));
  });
});
