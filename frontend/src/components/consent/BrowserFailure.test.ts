// When the system's browser cannot open a page the person agreed to open
// (issue 26: "exit status 4 /usr/bin/chromium: 9: [: …: unexpected
// operator" shown raw): a sentence in the person's language, the opener's
// words folded under Details, and Copy address, which copies exactly the
// checked address and opens nothing. api.ts is mocked; Go's side (the
// sentence, the details apart) is app/opener_test.go.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import * as api from '../../lib/api';
import LinkDialog from './LinkDialog.svelte';
import ConsentDialog from './ConsentDialog.svelte';
import OpenedPanel from './OpenedPanel.svelte';
import { questions } from '../../lib/questions.svelte';
import { question } from '../../test/fixtures';
import { language, loadLanguage } from '../../lib/i18n.svelte';

vi.mock('../../lib/api', async (orig) => (await import('../../test/mock-api')).mockApi(orig as never));
const mocked = vi.mocked(api);
beforeAll(() => loadLanguage('zh-CN'));
beforeEach(() => vi.clearAllMocks());
// Snapshots replace older ones only: each one here is newer than any before.
let version = 1_000_000;
afterEach(() => {
  language.choice = '';
  questions.apply({ version: ++version, waiting: [], opened: [], notices: [] } as never);
});

const url = 'https://maps.example.org/place?q=(a)&x=~1';
const link: api.LinkReport = {
  url,
  scheme: 'https',
  port: '',
  display: url,
  before: 'https://maps.',
  domainPart: 'example.org',
  after: '/place?q=(a)&x=~1',
  host: 'maps.example.org',
  asciiHost: 'maps.example.org',
  domain: 'example.org',
  asciiDomain: 'example.org',
  loopback: false,
  warnings: [],
};
const details = 'xdg-open: exit status 4\n/usr/bin/chromium: 9: [: --enable-features=x: unexpected operator';
const english = 'Your browser could not open the page. Copy the address and open it in your browser yourself.';

/** The error a bound method rejects with when the opener failed, as api.call makes it of Go's JSON. */
function browserFailed(): api.GoError {
  const m = { key: 'links.error.browserFailed', args: {}, text: english, details };
  return new api.GoError(m, english);
}

/** Checks the failure as the person sees it in container, and that Copy address copies exactly url. */
async function checkFailure(container: HTMLElement, sentence: string, copyLabel: string, copiedLabel: string) {
  const user = userEvent.setup();
  const alert = await within(container).findByText(sentence);
  const box = alert.closest('.browser-failure') as HTMLElement;
  expect(box).toBeTruthy();
  // The opener's words are there, folded, as text; not in the sentence.
  const folded = box.querySelector('details')!;
  expect(folded.open).toBe(false);
  expect(folded.querySelector('pre')!.textContent).toBe(details);
  expect(alert.textContent).not.toContain('exit status');
  await user.click(within(box).getByRole('button', { name: copyLabel }));
  expect(await navigator.clipboard.readText()).toBe(url);
  expect(within(box).getByText(copiedLabel)).toBeTruthy();
  await user.click(within(box).getByText(folded.querySelector('summary')!.textContent!));
  expect(folded.open).toBe(true);
}

describe('a failed browser open', () => {
  it('in the link dialog: the sentence, the details folded, and Copy address', async () => {
    const open = vi.fn(async () => {
      throw browserFailed();
    });
    const user = userEvent.setup();
    render(LinkDialog, { props: { link, source: '', open, onclose: vi.fn() } });
    await user.click(screen.getByRole('button', { name: 'Open in browser' }));
    await checkFailure(document.body, english, 'Copy address', 'Address copied');
    // Copying opened nothing more.
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('in Chinese, from the same error', async () => {
    language.choice = 'zh-CN';
    const open = vi.fn(async () => {
      throw browserFailed();
    });
    const user = userEvent.setup();
    render(LinkDialog, { props: { link, source: '', open, onclose: vi.fn() } });
    await user.click(screen.getByRole('button', { name: '在浏览器中打开' }));
    await checkFailure(document.body, '浏览器未能打开此页面。请复制地址，在浏览器中自行打开。', '复制地址', '地址已复制');
  });

  it("in a server's URL request: the dialog stays with Copy address", async () => {
    mocked.openPage.mockRejectedValue(browserFailed());
    const user = userEvent.setup();
    render(ConsentDialog, {
      props: { request: question({ kind: 'url', message: 'Sign in.', link, fields: [] }), onproblem: vi.fn(), onrefuse: vi.fn() },
    });
    await user.click(screen.getByRole('button', { name: 'Open in browser' }));
    await checkFailure(document.body, english, 'Copy address', 'Address copied');
    expect(mocked.openPage).toHaveBeenCalledTimes(1);
  });

  it('in "Finish in your browser": Open again shows it in place, with the address', async () => {
    mocked.openAgain.mockRejectedValue(browserFailed());
    questions.apply({
      version: ++version,
      waiting: [],
      notices: [],
      opened: [{ id: 'o1', serverId: 's1', serverName: 'Maps', message: '', link, openedAt: '2026-11-22T10:00:00Z' }],
    } as never);
    const user = userEvent.setup();
    const { container } = render(OpenedPanel);
    await user.click(screen.getByRole('button', { name: 'Open again' }));
    await checkFailure(container, english, 'Copy address', 'Address copied');
    expect(within(container).getByText(url)).toBeTruthy();
    expect(questions.notices).toEqual([]);
  });

  it('another error stays a plain sentence, without Copy address', async () => {
    const user = userEvent.setup();
    const open = vi.fn(async () => {
      throw new api.GoError({ key: 'links.error.changed', args: {}, text: '' }, '');
    });
    render(LinkDialog, { props: { link, source: '', open, onclose: vi.fn() } });
    await user.click(screen.getByRole('button', { name: 'Open in browser' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('it changed after it was checked'));
    expect(screen.queryByRole('button', { name: 'Copy address' })).toBeNull();
  });
});
