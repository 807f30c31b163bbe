// Settings → Tool permissions against the real Go core and the real demo
// server (a go-sdk server the app starts): a tool set to Deny stays Deny
// after the pane is left and opened again and after the page reloads, and
// the Go core says the same; trusting the server's read-only claims shows
// which tools then run without asking.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { outputDir, startApp, openSettingsAt, pollPage } from './helpers.mjs';

describe('Settings → Tool permissions', () => {
  let app;
  before(async () => {
    app = await startApp();
  });
  after(async () => {
    await app?.close();
  });

  /** A pane of the left navigation; Settings on its Tool permissions section. */
  async function section(page, name) {
    if (name === 'Settings') return openSettingsAt(page, 'Tool permissions');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name }).click();
  }

  function demoCard(page) {
    return page.getByRole('list', { name: 'Tool permissions' }).getByRole('listitem', { name: 'Demo server', exact: true });
  }

  /** The row of one tool in the demo server's card, once the server is connected and lists it. */
  async function toolRow(page, name) {
    const row = demoCard(page).getByRole('list', { name: 'Tools', exact: true }).getByRole('listitem', { name, exact: true });
    await row.waitFor({ timeout: 30_000 });
    return row;
  }

  it('a tool set to Deny shows Deny after the pane is opened again and after a reload', async () => {
    const { page } = app;
    await section(page, 'Settings');
    const echo = await toolRow(page, 'echo');
    assert.equal(await echo.getByLabel('Setting for echo').inputValue(), 'default');
    assert.match(await echo.innerText(), /read-only/);

    await echo.getByLabel('Setting for echo').selectOption('deny');
    // The core has it: what the chat reads on the next call.
    // The window saves on change without waiting; read until the save has landed (or time runs out).
    const saved = await pollPage(page, async () => {
      const list = await window.go.app.PoliciesService.List();
      const echo = list.find((s) => s.serverName === 'Demo server').tools.find((t) => t.name === 'echo');
      return echo.mode === 'deny' ? echo : false;
    });
    assert.equal(saved.mode, 'deny');
    assert.equal(saved.effective, 'deny');

    await section(page, 'Servers');
    await section(page, 'Settings');
    assert.equal(await (await toolRow(page, 'echo')).getByLabel('Setting for echo').inputValue(), 'deny');

    await page.reload();
    await section(page, 'Settings');
    assert.equal(await (await toolRow(page, 'echo')).getByLabel('Setting for echo').inputValue(), 'deny');
  });

  it("trusting the server's read-only claims lets its read-only tools run without asking; a tool's own Deny still wins", async () => {
    const { page } = app;
    await section(page, 'Settings');
    const card = demoCard(page);
    const add = await toolRow(page, 'add');
    assert.equal(await add.getByText(/Runs without asking/).count(), 0);

    await card.getByRole('switch', { name: "Trust this server's read-only claims" }).check();
    await add.getByText(/Runs without asking/).waitFor();
    const echo = await toolRow(page, 'echo');
    assert.equal(await echo.getByLabel('Setting for echo').inputValue(), 'deny');
    assert.equal(await echo.getByText(/Runs without asking/).count(), 0);
    // A tool that claims nothing is still asked.
    assert.equal(await (await toolRow(page, 'plan_trip')).getByText(/Runs without asking/).count(), 0);

    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(outputDir, 'settings-tool-permissions.png') });
    assert.deepEqual(app.problems, []);
  });
});
