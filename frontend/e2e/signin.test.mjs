// Signing in to a server that requires OAuth (E33), through the real app:
// the server card says it needs sign-in, Sign in shows the consent with the
// server's name and address before anything is sent to its authorization
// server, Open sends Gatehouse's start page to the (stand-in) browser, which
// goes on to the authorization URL, and once the browser comes back to
// Gatehouse's loopback address the server connects. Sign out returns it to
// "needs sign-in". The OAuth server is the test authorization server of
// mcp/oauthtest, run by tests/oauthpeer.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fakeBrowser, outputDir, repoDir, serverCard, startApp, waitForState } from './helpers.mjs';

function startOAuthPeer() {
  const child = spawn('go', ['run', './tests/oauthpeer'], { cwd: repoDir, stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (url) => resolve({ url, close: () => child.stdin.end() }));
    child.once('exit', (code) => reject(new Error(`oauthpeer exited with ${code}`)));
  });
}

describe('sign-in (OAuth)', () => {
  let app;
  let browser;
  let peer;
  before(async () => {
    peer = await startOAuthPeer();
    browser = await fakeBrowser();
    app = await startApp({ env: { PATH: browser.path } });
  });
  after(async () => {
    await app?.close();
    await browser?.close();
    peer?.close();
  });

  it('needs sign-in, signs in through the browser, and signs out', async () => {
    const { page } = app;
    await page.evaluate(
      (url) =>
        window.go.app.ServersService.Add({
          name: 'Calendar',
          enabled: true,
          transport: 'http',
          command: '',
          args: [],
          env: {},
          dir: '',
          url,
          headers: {},
          noUrlMode: false,
          clientId: '',
          clientSecret: '',
          clientMetadataUrl: '',
        }),
      peer.url,
    );
    await waitForState(page, 'Calendar', 'needs-sign-in');
    const card = serverCard(page, 'Calendar');
    assert.match(await card.innerText(), /This server needs you to sign in\./);
    await card.getByRole('button', { name: 'Sign in…' }).click();

    const dialog = page.getByRole('dialog', { name: 'Calendar wants you to sign in' });
    await dialog.waitFor();
    // The consent names the server and its address; nothing has been sent
    // to its authorization server yet, so there is no sign-in page to show.
    const text = await dialog.innerText();
    assert.ok(text.includes(peer.url), `the dialog names the server's address: ${text}`);
    assert.match(text, /contacts this server's authorization server only once you agree/);
    assert.equal(await dialog.getByTestId('url').count(), 0);
    assert.deepEqual(await browser.args(), [], 'nothing opens before consent');
    await page.screenshot({ path: join(outputDir, 'e2e-signin.png') });
    await dialog.getByRole('button', { name: 'Sign in in browser' }).click();
    await dialog.waitFor({ state: 'detached' });

    const args = await browser.args();
    assert.equal(args.length, 1);
    assert.match(args[0], /^ARG:http:\/\/127\.0\.0\.1:\d+\/start\?s=/);
    // What the person's browser does: Gatehouse's start page sends it on to
    // the authorization server, which approves and sends it back to
    // Gatehouse's loopback address.
    const res = await fetch(args[0].slice('ARG:'.length));
    assert.match(await res.text(), /Gatehouse received your sign-in/);
    await waitForState(page, 'Calendar', 'connected');

    await card.getByRole('button', { name: 'Sign out' }).click();
    await waitForState(page, 'Calendar', 'needs-sign-in');
  });

  it('the page had no errors', () => {
    assert.deepEqual(app.problems, []);
  });
});
