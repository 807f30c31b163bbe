// Settings saves as you go (issue 12: "one way of saving on the whole page"),
// against the real core and the demo server: each setting is changed the
// way a person changes it, says "Saved" next to itself, and holds when
// Gatehouse starts again on the same data folder. A number Go refuses stays
// in its field with Go's sentence and is not stored. The per-server choices
// say what the next call or request does. Screenshots of the pane at
// 1100×760 and 800×600, in English and Chinese, light and dark.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSettingsAt, outputDir, startApp, waitForState } from './helpers.mjs';

/** Settings on Requests from servers, where the numbers are. */
const openSettings = async (page) => {
  await openSettingsAt(page, 'Requests from servers');
  await page.getByLabel('Time to answer a request (minutes)').waitFor();
};
/** The "Saved" note of a control, by its key (see SavedNote.svelte); the key may end with $= match. */
const saved = (page, key) => page.locator(`[data-saved-for${key.startsWith('*') ? '$' : ''}="${key.replace(/^\*/, '')}"]`);
const demoCard = (page) => page.getByRole('listitem', { name: 'Demo server', exact: true });
const choice = (page, question, name) =>
  demoCard(page).getByRole('group', { name: question }).getByRole('radio', { name, exact: true });

/** What scrolls sideways on the page: sentences, none when all fits. */
function sideways(page) {
  return page.evaluate(() =>
    [document.scrollingElement, document.querySelector('main')]
      .filter((el) => el && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()} scrolls sideways: ${el.scrollWidth}px in ${el.clientWidth}px`),
  );
}

describe('Settings, saved as you go', () => {
  let app;
  let dataDir;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-settings-'));
    app = await startApp({ dataDir });
    await waitForState(app.page, 'Demo server', 'connected');
  });
  after(async () => {
    await app?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('has no Save button; each change says Saved next to itself', async () => {
    const { page } = app;
    await openSettingsAt(page, 'General');
    await page.getByText('Each change is saved as soon as you make it.').waitFor();
    assert.equal(await page.getByRole('button', { name: /^Save/ }).count(), 0);

    await page.getByLabel('Language of the window').selectOption('en');
    await saved(page, 'language').getByText('Saved.').waitFor();

    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await saved(page, 'theme').getByText('Saved.').waitFor();
    assert.equal(await saved(page, 'language').innerText(), '', 'only the control changed last says it');

    await openSettings(page);
    const answerTime = page.getByLabel('Time to answer a request (minutes)');
    await answerTime.fill('7');
    await answerTime.press('Enter');
    await saved(page, 'elicitationTimeoutMinutes').getByText('Saved.').waitFor();
    assert.equal(await saved(page, 'elicitationTimeoutMinutes').getAttribute('aria-live'), 'polite');

    const toolTime = page.getByLabel('Tool call time limit (seconds)');
    await toolTime.fill('90');
    await toolTime.press('Tab'); // leaving the field commits it
    await saved(page, 'toolCallTimeoutSeconds').getByText('Saved.').waitFor();

    await page.getByRole('switch', { name: 'Remember my answers in the history' }).check();
    await saved(page, 'rememberAnswers').getByText('Saved.').waitFor();

    const stored = await page.evaluate(() => window.go.app.SettingsService.Get());
    assert.deepEqual(stored, { elicitationTimeoutMinutes: 7, toolCallTimeoutSeconds: 90, rememberAnswers: true });
  });

  it('a number Go refuses stays in the field with the reason, and is not stored', async () => {
    const { page } = app;
    const answerTime = page.getByLabel('Time to answer a request (minutes)');
    await answerTime.fill('0');
    await answerTime.press('Enter');
    const reason = page.getByText('The answer time must be between 1 minute and 24 hours.');
    await reason.waitFor();
    assert.equal(await answerTime.inputValue(), '0');
    assert.equal(await answerTime.getAttribute('aria-invalid'), 'true');
    assert.equal(await saved(page, 'elicitationTimeoutMinutes').innerText(), '');

    await answerTime.fill('2.5');
    await answerTime.press('Enter');
    await page.getByText('Enter a whole number of minutes, for example 10.').waitFor();
    assert.equal(await answerTime.inputValue(), '2.5');

    // Another pane and back: the value waiting to be fixed is still there.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'History' }).click();
    await openSettings(page);
    assert.equal(await page.getByLabel('Time to answer a request (minutes)').inputValue(), '2.5');
    await page.getByText('Enter a whole number of minutes, for example 10.').waitFor();

    const stored = await page.evaluate(() => window.go.app.SettingsService.Get());
    assert.equal(stored.elicitationTimeoutMinutes, 7, 'the stored value stays until the field is fixed');
  });

  it('the per-server choices say what the next call or request does, and save as they are picked', async () => {
    const { page } = app;
    await openSettingsAt(page, 'Tool permissions');
    const says = async (question, name) => {
      const radio = choice(page, question, name);
      const ids = (await radio.getAttribute('aria-describedby')).split(' ');
      return page.evaluate((list) => list.map((id) => document.getElementById(id)?.textContent).join(' '), ids);
    };
    assert.match(await says('When the model calls a tool', 'Ask each time'), /^The next call waits for you: a dialog shows the tool/);
    assert.match(await says('When the model calls a tool', 'Allow without asking'), /^The next call runs at once, without a dialog/);
    assert.match(await says('When the model calls a tool', 'Deny'), /^The next call is not made: the model is told/);
    assert.match(await says('When the server asks you something', 'Ask me'), /^The next one opens a dialog/);
    assert.match(await says('When the server asks you something', 'Decline without asking'), /^The server is told no at once/);
    await page.getByRole('heading', { name: "A tool's own setting" }).waitFor();
    await page.getByText('Never runs, not even in a conversation where you allowed it before.').waitFor();

    await choice(page, 'When the model calls a tool', 'Deny').check();
    await saved(page, '*:mode:deny').getByText('Saved.').waitFor();
    await choice(page, 'When the server asks you something', 'Decline without asking').check();
    await saved(page, '*:requests:decline').getByText('Saved.').waitFor();
    await demoCard(page).getByLabel('Setting for plan_trip').selectOption('allow');
    await saved(page, '*:tool:plan_trip').getByText('Saved.').waitFor();

    const policy = await page.evaluate(async () => {
      const s = (await window.go.app.ServersService.List()).servers.find((x) => x.input.name === 'Demo server');
      return window.go.app.PoliciesService.Server(s.id);
    });
    assert.equal(policy.mode, 'deny');
    assert.equal(policy.requests, 'decline');
    assert.equal(policy.tools.find((t) => t.name === 'plan_trip').mode, 'allow');
  });

  it('every setting holds when Gatehouse starts again on the same data folder; the refused number was never stored', async () => {
    assert.deepEqual(app.problems, []);
    await app.close();
    app = await startApp({ dataDir });
    const { page } = app;
    await waitForState(page, 'Demo server', 'connected');
    // Settings opens on the section chosen last before the restart: Tool permissions.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Tool permissions', selected: true }).waitFor();
    assert.ok(await choice(page, 'When the model calls a tool', 'Deny').isChecked());
    await openSettingsAt(page, 'General');
    assert.equal(await page.getByLabel('Language of the window').inputValue(), 'en');
    assert.equal(await page.getByLabel('Theme', { exact: true }).inputValue(), 'dark');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await openSettings(page);
    assert.equal(await page.getByLabel('Time to answer a request (minutes)').inputValue(), '7');
    assert.equal(await page.getByLabel('Tool call time limit (seconds)').inputValue(), '90');
    assert.ok(await page.getByRole('switch', { name: 'Remember my answers in the history' }).isChecked());
    await openSettingsAt(page, 'Tool permissions');
    assert.ok(await choice(page, 'When the server asks you something', 'Decline without asking').isChecked());
    assert.equal(await demoCard(page).getByLabel('Setting for plan_trip').inputValue(), 'allow');
  });

  it('screenshots at 1100×760 and 800×600, English and Chinese, light and dark; nothing scrolls sideways', async () => {
    const { page } = app;
    // A refused value on screen, so that the screenshots show how it looks.
    await openSettings(page);
    const answerTime = page.getByLabel('Time to answer a request (minutes)');
    await answerTime.fill('0');
    await answerTime.press('Enter');
    await page.getByText('The answer time must be between 1 minute and 24 hours.').waitFor();
    await page.getByRole('switch', { name: 'Remember my answers in the history' }).uncheck();
    await saved(page, 'rememberAnswers').getByText('Saved.').waitFor();
    for (const [lang, theme] of [
      ['en', 'light'],
      ['en', 'dark'],
      ['zh-CN', 'light'],
      ['zh-CN', 'dark'],
    ]) {
      await page.evaluate(([l, th]) => Promise.all([window.go.app.SettingsService.SetLanguage(l), window.go.app.ThemeService.Set(th)]), [lang, theme]);
      await page.locator(`html[lang="${lang}"][data-theme="${theme}"]`).waitFor();
      for (const [width, height] of [
        [1100, 760],
        [800, 600],
      ]) {
        await page.setViewportSize({ width, height });
        await page.locator('main').evaluate((m) => m.scrollTo(0, 0));
        assert.deepEqual(await sideways(page), [], `${lang} ${theme} at ${width}×${height}`);
        await page.screenshot({ path: join(outputDir, `e2e-settings-${lang}-${theme}-${width}x${height}.png`) });
        await page.getByRole('tab', { name: lang === 'en' ? 'Tool permissions' : '工具权限' }).click();
        await page.locator('#permissions-title').waitFor();
        assert.deepEqual(await sideways(page), [], `permissions: ${lang} ${theme} at ${width}×${height}`);
        await page.screenshot({ path: join(outputDir, `e2e-settings-permissions-${lang}-${theme}-${width}x${height}.png`) });
        await page.getByRole('tab', { name: lang === 'en' ? 'Requests from servers' : '来自服务器的请求' }).click();
      }
    }
    await page.setViewportSize({ width: 1100, height: 760 });
    assert.deepEqual(app.problems, []);
  });
});
