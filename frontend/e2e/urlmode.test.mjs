// URL mode against the real core and real servers (the demo server and the
// TypeScript SDK URL peer), with a stand-in for the system browser that
// records what it is asked to open (see fakeBrowser). What a person checks:
// the real domain is highlighted, look-alikes are called out, nothing is
// fetched before consent, Open reaches the browser with exactly the URL, the
// wait ends when the server confirms, and a -32042 call goes on by itself
// (E19–E25, E31).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { callTool, fakeBrowser, openTool, outputDir, repoDir, startApp, waitForState } from './helpers.mjs';

const consent = (page) => page.getByRole('dialog', { name: /is asking for your input$/ });
const result = (page) => page.getByRole('region', { name: /^(Result|Error result)$/ });
const finishPanel = (page) => page.getByRole('region', { name: 'Finish in your browser' });

async function startCall(page, server, tool) {
  await openTool(page, server, tool);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
}

async function resultText(page) {
  await result(page).waitFor({ timeout: 30_000 });
  return result(page).innerText();
}

describe('URL mode', () => {
  let app;
  let browser;
  let beacon;
  const hits = [];
  before(async () => {
    browser = await fakeBrowser();
    beacon = createServer((req, res) => {
      hits.push(req.url);
      res.end('hello');
    });
    await new Promise((r) => beacon.listen(0, '127.0.0.1', r));
    app = await startApp({ env: { PATH: browser.path } });
    await waitForState(app.page, 'Demo server', 'connected');
    await app.page.evaluate(
      ([node, script]) =>
        window.go.app.ServersService.Add({
          name: 'Pages',
          enabled: true,
          transport: 'stdio',
          command: node,
          args: [script],
          env: {},
          dir: '',
          url: '',
          headers: {},
        }),
      [process.execPath, join(repoDir, 'testdata/peers/url-server.mjs')],
    );
    await waitForState(app.page, 'Pages', 'connected');
  });
  after(async () => {
    await app?.close();
    await browser?.close();
    beacon?.close();
  });

  it('a look-alike address: the real domain highlighted, a warning, and Decline opens nothing (E20, E22)', async () => {
    const { page } = app;
    await startCall(page, 'Demo server', 'lookalike_link');
    const dialog = consent(page);
    await dialog.waitFor();
    const url = dialog.getByTestId('url');
    assert.equal(await url.innerText(), 'https://p\u0430ypal.com/verify');
    assert.equal(await url.locator('mark').innerText(), 'p\u0430ypal.com');
    assert.match(await dialog.innerText(), /may imitate paypal\.com/);
    assert.match(await dialog.innerText(), /is written\s+xn--/);
    assert.equal(await dialog.locator('a[href], img').count(), 0);
    await page.screenshot({ path: join(outputDir, 'e2e-url-lookalike.png') });
    await dialog.getByRole('button', { name: 'Decline' }).click();
    assert.match(await resultText(page), /^decline$/m);
    assert.deepEqual(await browser.args(), []);
  });

  it('nothing is fetched before consent; Open reaches the browser; the server’s notice ends the wait (E19, E21, E24)', async () => {
    const { page, url: appURL } = app;
    const outside = [];
    const onRequest = (r) => {
      if (!r.url().startsWith(appURL) && !r.url().startsWith('ws://')) outside.push(r.url());
    };
    page.on('request', onRequest);
    const target = `http://127.0.0.1:${beacon.address().port}/sign-in?step=(1)`;
    await page.evaluate(async (target) => {
      const s = (await window.go.app.ServersService.List()).servers.find((x) => x.input.name === 'Pages');
      window.__page = window.go.app.ToolsService.Call('page', s.id, 'open_page', JSON.stringify({ url: target, completeAfterMs: 1500 }));
    }, target);
    const dialog = consent(page);
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('heading').innerText(), 'Pages is asking for your input');
    assert.equal(await dialog.getByTestId('url').innerText(), target);
    await page.waitForTimeout(500); // a prefetch or preview would have happened by now
    assert.deepEqual(hits, [], 'the URL host was contacted before consent');
    assert.deepEqual(outside, []);

    await dialog.getByRole('button', { name: 'Open in browser' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.deepEqual(await browser.args(), [`ARG:${target}`]);
    const panel = finishPanel(page);
    await panel.getByText('Pages is waiting for you to finish').waitFor();
    await page.screenshot({ path: join(outputDir, 'e2e-url-finish.png') });
    // The peer sends notifications/elicitation/complete 1.5 s after accept.
    await panel.waitFor({ state: 'detached', timeout: 10_000 });
    const res = await page.evaluate(() => window.__page);
    assert.match(res.content[0].text, /^accept [0-9a-f-]+$/);
    assert.deepEqual(hits, [], 'Gatehouse itself never fetched the page');
    assert.deepEqual(outside, []);
    page.off('request', onRequest);
  });

  it('a call that needs a page first (-32042) goes on by itself once the page is finished (E25)', async () => {
    const { page } = app;
    const before = (await browser.args()).length;
    await startCall(page, 'Demo server', 'sync_calendar');
    const dialog = consent(page);
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /Connect your calendar account first\./);
    await dialog.getByRole('button', { name: 'Open in browser' }).click();
    await finishPanel(page).waitFor();
    const args = await browser.args();
    assert.equal(args.length, before + 1);
    const pageURL = args.at(-1).slice('ARG:'.length);
    assert.match(pageURL, /^http:\/\/127\.0\.0\.1:\d+\/connect\//);
    // The person presses Finish on the page (what their browser would do).
    const res = await fetch(`${pageURL}/finish`, { method: 'POST' });
    assert.equal(res.status, 200);
    await finishPanel(page).waitFor({ state: 'detached' });
    assert.match(await resultText(page), /Calendar synced: 3 events\./);
  });

  it('I’ve finished lets a waiting call go on when the server never confirms', async () => {
    const { page } = app;
    // server-everything-like behaviour: the demo page is opened but never finished.
    const before = (await browser.args()).length;
    await startCall(page, 'Demo server', 'connect_account');
    await consent(page).getByRole('button', { name: 'Open in browser' }).click();
    const panel = finishPanel(page);
    await panel.waitFor();
    await panel.getByRole('button', { name: 'Open again' }).click();
    for (let i = 0; i < 50 && (await browser.args()).length < before + 2; i++) await page.waitForTimeout(100);
    const args = await browser.args();
    assert.equal(args.length, before + 2);
    assert.equal(args.at(-1), args.at(-2), 'Open again opens the same address');
    await panel.getByRole('button', { name: "I've finished" }).click();
    await panel.waitFor({ state: 'detached' });
    assert.match(await resultText(page), /Opened the sign-in page; finish there\./);
  });

  it('a web link in a tool result opens only after the same consent display (E31)', async () => {
    const { page } = app;
    const res = await callTool(page, 'Demo server', 'readme_link', {});
    // The resource link that is no web address opens in Gatehouse (e2e/resources.test.mjs); only the web one has "Open in browser…".
    assert.equal(await res.getByRole('button', { name: 'Open in Gatehouse' }).count(), 1);
    assert.equal(await res.getByRole('button', { name: 'Open in browser…' }).count(), 1);
    const before = (await browser.args()).length;
    await res.getByRole('button', { name: 'Open in browser…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open this address in your browser?' });
    await dialog.waitFor();
    assert.equal(await dialog.locator('mark').innerText(), 'modelcontextprotocol.io');
    assert.equal((await browser.args()).length, before, 'nothing opens before consent');
    await dialog.getByRole('button', { name: 'Open in browser' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await browser.args()).at(-1), 'ARG:https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation');
  });

  it('the page had no errors', () => {
    assert.deepEqual(app.problems, []);
  });
});
