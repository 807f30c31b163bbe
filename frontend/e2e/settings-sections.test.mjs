// Settings in sections (issue 26: "Settings that people find their way in"),
// against the real core: a side list of sections, one shown at a time, moved
// through with the keyboard; the chat's "Add a model provider in Settings →
// Models." is a link that goes there; About shows the version, the data
// folder with Open folder (a stand-in xdg-open records what it got), the
// licence and what is compiled in. Screenshots of Models reached both ways
// and of About.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeBrowser, outputDir, startApp } from './helpers.mjs';

const navButton = (page, name) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name, exact: true });
const sideList = (page) => page.getByRole('tablist', { name: 'Sections of Settings' });

describe('Settings in sections', () => {
  let app;
  let dataDir;
  let browser;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-sections-'));
    browser = await fakeBrowser();
    app = await startApp({ dataDir, env: { PATH: browser.path } });
  });
  after(async () => {
    await app?.close();
    await browser?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('the side list names six sections; the arrow keys move and show one at a time, Models never below the tool list', async () => {
    const { page } = app;
    await navButton(page, 'Settings').click();
    const list = sideList(page);
    await list.waitFor();
    assert.deepEqual(await list.getByRole('tab').allInnerTexts(), [
      'General',
      'Models',
      'Tool permissions',
      'Requests from servers',
      'Connected apps',
      'About',
    ]);
    const general = list.getByRole('tab', { name: 'General' });
    assert.equal(await general.getAttribute('aria-selected'), 'true', 'a new data folder opens on General');
    await general.focus();
    await page.keyboard.press('ArrowDown');
    const models = page.getByRole('heading', { name: 'Models', level: 2 });
    await models.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Models', 'the focus follows to the Models tab');
    assert.equal(await page.locator('#permissions-title').count(), 0, 'Tool permissions is not on screen with Models');
    assert.equal(await page.getByLabel('Language of the window').count(), 0);
    // Models is at the top of the pane, beside the list: nothing to scroll to.
    const top = await models.evaluate((h) => h.getBoundingClientRect().top);
    assert.ok(top < 200, `Models' heading is ${top}px from the top`);
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(ring, 'none', 'the focused tab shows its focus ring');
    await page.screenshot({ path: join(outputDir, 'e2e-settings-sections-models-keyboard.png') });

    // The side list by the mouse: Tool permissions, then back to Models.
    await list.getByRole('tab', { name: 'Tool permissions' }).click();
    await page.locator('#permissions-title').waitFor();
    assert.equal(await models.count(), 0);
    await list.getByRole('tab', { name: 'Models' }).click();
    await models.waitFor();
    assert.equal(await page.evaluate(() => window.go.app.SettingsService.Section()), 'models', 'Go keeps the choice');
  });

  it('the chat\'s "Settings → Models" is a link that opens Settings on Models with the focus on its heading', async () => {
    const { page } = app;
    await page.getByRole('tablist', { name: 'Sections of Settings' }).getByRole('tab', { name: 'General' }).click();
    await navButton(page, 'Chat').click();
    const link = page.getByRole('button', { name: 'Settings → Models' });
    await link.waitFor();
    assert.equal((await link.locator('xpath=..').innerText()).trim(), 'Add a model provider in Settings → Models.');
    await link.click();
    const models = page.getByRole('heading', { name: 'Models', level: 2 });
    await models.waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'models-title');
    assert.equal(await sideList(page).getByRole('tab', { name: 'Models' }).getAttribute('aria-selected'), 'true');
    assert.equal(await navButton(page, 'Settings').getAttribute('aria-current'), 'page');
    await page.screenshot({ path: join(outputDir, 'e2e-settings-sections-models-from-chat.png') });
  });

  it('About: version, data folder with Open folder, the Apache-2.0 licence and what is compiled in', async () => {
    const { page } = app;
    await sideList(page).getByRole('tab', { name: 'About' }).click();
    await page.getByText('Gatehouse is licensed under the Apache License 2.0.').waitFor();
    await page.getByText(dataDir, { exact: true }).waitFor();
    const table = page.getByRole('table', { name: 'What Gatehouse is built from' });
    await table.waitFor();
    const rows = await table.getByRole('row').allInnerTexts();
    assert.ok(rows.length > 40, `${rows.length} rows`);
    assert.ok(rows.some((r) => /go\.etcd\.io\/bbolt\s+v[\d.]+\s+MIT \(Expat\)/.test(r)), 'bbolt is listed with its licence');
    assert.ok(rows.some((r) => /^svelte\s+5\./.test(r)), 'the Svelte runtime bundled into the window is listed');

    await page.getByRole('button', { name: 'Open folder' }).click();
    await page.waitForFunction(() => true);
    let args = [];
    for (let i = 0; i < 50 && args.length === 0; i++) {
      args = await browser.args();
      if (args.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(args, [`ARG:${dataDir}`], 'the file manager gets the data folder, and nothing else');
    await page.screenshot({ path: join(outputDir, 'e2e-settings-sections-about.png'), fullPage: true });
  });

  it('Settings opens on the section chosen last after Gatehouse starts again', async () => {
    await app.close();
    app = await startApp({ dataDir, env: { PATH: browser.path } });
    const { page } = app;
    await navButton(page, 'Settings').click();
    await sideList(page).getByRole('tab', { name: 'About', selected: true }).waitFor();
    await page.getByText('Gatehouse is licensed under the Apache License 2.0.').waitFor();
    assert.deepEqual(app.problems, []);
  });
});
