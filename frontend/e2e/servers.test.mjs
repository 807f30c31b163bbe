// A person's first minutes with Gatehouse, against the real Go core: the
// demo server is there and connected, they add server-everything through the
// editor, and call its echo tool.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { everythingServer, openTool, pressCall, outputDir, serverCard, startApp, waitForState } from './helpers.mjs';

describe('servers and tools on a fresh data folder', () => {
  let app;
  before(async () => {
    app = await startApp();
  });
  after(async () => {
    await app?.close();
  });

  it('shows the Demo server, connected', async () => {
    const { page } = app;
    await serverCard(page, 'Demo server').waitFor();
    await waitForState(page, 'Demo server', 'connected');
    const card = await serverCard(page, 'Demo server').innerText();
    assert.match(card, /Connected/);
    assert.match(card, /protocol \d{4}-\d{2}-\d{2}/);
    assert.match(card, /gatehouse-demo/);
  });

  it('adds server-everything through the editor and it connects', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a server' });
    await dialog.getByLabel('Name').fill('Everything');
    await dialog.getByLabel('Transport').selectOption('stdio');
    await dialog.getByLabel('Command').fill('node');
    await dialog.getByLabel('Arguments').fill(`${everythingServer}\nstdio`);

    // Go's validation answers as the person types: a duplicate name is refused inline.
    await dialog.getByLabel('Name').fill('Demo server');
    await dialog.getByText('A server named "Demo server" already exists.').waitFor();
    // Save then shows the problem at its field and stays open.
    await dialog.getByRole('button', { name: 'Save' }).click();
    assert.equal(await dialog.getByLabel('Name').evaluate((el) => el === document.activeElement), true);
    await dialog.getByLabel('Name').fill('Everything');

    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await waitForState(page, 'Everything', 'connected', 60_000);
    assert.match(await serverCard(page, 'Everything').innerText(), /\d+ tools/);
  });

  it("calls server-everything's echo tool and shows the text", async () => {
    const { page } = app;
    // The way a person does it: the form generated from the tool's input schema.
    await openTool(page, 'Everything', 'echo');
    await page.getByRole('tab', { name: 'Form', selected: true }).waitFor();
    await page.getByRole('tabpanel', { name: 'Form' }).getByLabel(/message/i).fill('hello gatehouse');
    const result = await pressCall(page);
    await result.getByText(/hello gatehouse/).waitFor();
    assert.equal(await result.getAttribute('aria-label'), 'Result');
    await page.screenshot({ path: join(outputDir, 'e2e-tools-everything.png'), fullPage: true });
  });

  it('renames a server in the editor, then removes it after confirming', async () => {
    const { page } = app;
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Servers' }).click();
    await serverCard(page, 'Everything').getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Everything' });
    assert.equal(await dialog.getByLabel('Command').inputValue(), 'node');
    await dialog.getByLabel('Name').fill('Everything (renamed)');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await serverCard(page, 'Everything (renamed)').waitFor();

    await serverCard(page, 'Everything (renamed)').getByRole('button', { name: 'Remove' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Everything (renamed)?' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await serverCard(page, 'Everything (renamed)').waitFor({ state: 'detached' });
    await serverCard(page, 'Demo server').waitFor();
  });

  it('the page had no errors (CSP violations included)', () => {
    assert.deepEqual(app.problems, []);
  });
});
