// Issue 26's rough edges against the real core, in the real page: a system
// browser that fails (an xdg-open that exits 4 after a broken browser
// script's complaint) gives a sentence, the details folded and Copy address;
// a stdio server whose module is missing shows why on its card.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outputDir, repoDir, serverCard, startApp, waitForState } from './helpers.mjs';

const consent = (page) => page.getByRole('dialog', { name: /is asking for your input$/ });

async function addServer(page, name, command, args) {
  await page.evaluate(
    ([name, command, args]) =>
      window.go.app.ServersService.Add({ name, enabled: true, transport: 'stdio', command, args, env: {}, dir: '', url: '', headers: {} }),
    [name, command, args],
  );
}

describe('rough edges (issue 26)', () => {
  let app;
  let dir;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-rough-'));
    await writeFile(
      join(dir, 'xdg-open'),
      "#!/bin/sh\necho '/usr/bin/chromium: 9: [: --enable-features=x: unexpected operator' >&2\nexit 4\n",
      { mode: 0o755 },
    );
    await writeFile(join(dir, 'broken.js'), "require('x');\n");
    app = await startApp({ env: { PATH: `${dir}:${process.env.PATH}` } });
    await app.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await waitForState(app.page, 'Demo server', 'connected');
  });
  after(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a browser that fails: a sentence, the details folded, and Copy address copies the checked address', async () => {
    const { page } = app;
    await addServer(page, 'Pages', process.execPath, [join(repoDir, 'testdata/peers/url-server.mjs')]);
    await waitForState(page, 'Pages', 'connected');
    const target = 'http://127.0.0.1:9/sign-in?step=(1)';
    await page.evaluate(async (target) => {
      const s = (await window.go.app.ServersService.List()).servers.find((x) => x.input.name === 'Pages');
      window.__page = window.go.app.ToolsService.Call('page', s.id, 'open_page', JSON.stringify({ url: target })).catch(String);
    }, target);
    const dialog = consent(page);
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Open in browser' }).click();
    const failure = dialog.locator('.browser-failure');
    await failure.waitFor();
    const text = await failure.innerText();
    assert.match(text, /^Your browser could not open the page\. Copy the address and open it in your browser yourself\./);
    assert.doesNotMatch(text, /unexpected operator/, 'the details are folded');
    await failure.getByText('Details').click();
    assert.match(await failure.locator('details pre').innerText(), /exit status 4\n\/usr\/bin\/chromium: 9: \[: --enable-features=x: unexpected operator/);
    await failure.getByRole('button', { name: 'Copy address' }).click();
    await failure.getByText('Address copied').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), target);
    await page.screenshot({ path: join(outputDir, 'e2e-browser-failure.png') });
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("a stdio server whose module is missing shows Node's error on its card", async () => {
    const { page } = app;
    await addServer(page, 'Broken', process.execPath, [join(dir, 'broken.js')]);
    await waitForState(page, 'Broken', 'error');
    const card = serverCard(page, 'Broken');
    const tail = card.getByLabel('What the server wrote last (stderr):');
    await tail.waitFor();
    assert.match(await tail.innerText(), /^Error: Cannot find module 'x'\nRequire stack:/);
    assert.match(await card.innerText(), /exited with code 1/);
    await card.screenshot({ path: join(outputDir, 'e2e-server-stderr.png') });
  });
});
