// The first-start welcome against the real Go core: on a fresh data folder
// (only the demo server) it shows, "Try the demo's plan_trip" opens the
// Tools pane on the demo server with plan_trip chosen, Dismiss hides it, and
// a restart of Gatehouse on the same data folder does not show it again.
// welcome.png and welcome-dark.png are for the closing note.

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outputDir, serverCard, startApp, waitForState } from './helpers.mjs';

const welcomeBox = (page) => page.getByRole('region', { name: 'Welcome to Gatehouse' });
const nav = (page, name) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: new RegExp(`^${name}\\b`) });

describe('first-start welcome', () => {
  let app;
  let dataDir;
  after(async () => {
    await app?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('shows on a fresh data folder, leads to plan_trip, and stays away once dismissed, also after a restart', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-welcome-'));
    app = await startApp({ dataDir });
    let { page } = app;

    const box = welcomeBox(page);
    await box.waitFor();
    await page.screenshot({ path: join(outputDir, 'welcome.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(outputDir, 'welcome-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });

    await waitForState(page, 'Demo server', 'connected');
    await box.getByRole('button', { name: "Try the demo's plan_trip" }).click();
    await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
    const picker = page.getByLabel('Server', { exact: true });
    assert.equal(await picker.locator('option:checked').innerText(), 'Demo server');
    const chosen = page.getByRole('navigation', { name: 'Tools of Demo server' }).locator('button[aria-current="true"]');
    await chosen.waitFor();
    assert.equal(await chosen.getAttribute('data-tool'), 'plan_trip');
    await page.getByRole('heading', { level: 2, name: /Plan a trip/ }).waitFor();

    await nav(page, 'Servers').click();
    await box.waitFor();
    await box.getByRole('button', { name: 'Dismiss' }).click();
    await box.waitFor({ state: 'detached' });
    await serverCard(page, 'Demo server').waitFor();

    await app.close();
    app = await startApp({ dataDir });
    page = app.page;
    await serverCard(page, 'Demo server').waitFor();
    // The page asks Go the same at start-up; once Go has answered, the welcome had its chance to show.
    assert.equal(await page.evaluate(() => window.go.app.SettingsService.WelcomeDismissed()), true);
    await page.waitForTimeout(500);
    assert.equal(await welcomeBox(page).count(), 0, 'the welcome came back after a restart');
    assert.deepEqual(app.problems, []);
  });
});
