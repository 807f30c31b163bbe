// The add/edit server dialog and the provider dialog as a person at the
// keyboard meets them, against the real Go core: a stdio server
// (server-everything) is added with Tab, typing and Enter only, through a
// refused name that is fixed and saved with Enter; the footer (Save, Cancel)
// is in the window at 1100×760 and 800×600 in English and Chinese; Escape on
// an untouched dialog closes it at once and with input asks "Discard your
// changes?", which starts on Keep editing. Screenshots of the server dialog at
// both sizes, in both languages, light and dark: dialogs-server-*.png.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { everythingServer, outputDir, serverCard, startApp, waitForState, openSettingsAt } from './helpers.mjs';

const sizes = [
  [1100, 760],
  [800, 600],
];

const words = {
  en: { addServer: 'Add server', serverTitle: 'Add a server', addProvider: 'Add a provider', providerTitle: 'Add a model provider', save: 'Save', cancel: 'Cancel' },
  zh: { addServer: '添加服务器', serverTitle: '添加服务器', addProvider: '添加提供方', providerTitle: '添加模型提供方', save: '保存', cancel: '取消' },
};

const focusedText = (page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
const isFocused = (locator) => locator.evaluate((el) => el === document.activeElement);

/** Presses Tab until the focus is on the button that reads text; fails after 60 stops. */
async function tabTo(page, text) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const on = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.tagName === 'BUTTON' ? el.textContent.trim() : '';
    });
    if (on === text) return;
  }
  throw new Error(`Tab never reached the button “${text}”`);
}

/**
 * What keeps a person from seeing or pressing a button of the dialog's footer:
 * a button outside the window, or one covered or cut off (the point at its
 * middle is not the button). Returns sentences.
 */
function unreachable(dialog, names) {
  return dialog.evaluate((d, names) => {
    const bad = [];
    const buttons = [...d.querySelectorAll('button')];
    for (const name of names) {
      const b = buttons.find((x) => x.textContent.trim() === name && x.getClientRects().length > 0);
      if (!b) {
        bad.push(`no button “${name}”`);
        continue;
      }
      const r = b.getBoundingClientRect();
      if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
        bad.push(`“${name}” is outside the ${innerWidth}×${innerHeight} window (${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)})`);
        continue;
      }
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !b.contains(hit)) bad.push(`“${name}” is covered or cut off (the point at its middle is ${hit?.tagName ?? 'nothing'})`);
    }
    return bad;
  }, names);
}

describe('dialogs at the keyboard', () => {
  let app;
  before(async () => {
    app = await startApp();
    await waitForState(app.page, 'Demo server', 'connected');
  });
  after(async () => {
    await app?.close();
  });

  it('adds a stdio server with the keyboard only: a refused name, fixed, and Enter saves', async () => {
    const { page } = app;
    await tabTo(page, 'Add server');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add a server' });
    await dialog.waitFor();
    assert.equal(await isFocused(dialog.getByLabel('Name')), true, 'the dialog starts on its first field');

    await page.keyboard.type('Demo server');
    await page.keyboard.press('Tab'); // Transport: a local program is the default
    await page.keyboard.press('Tab');
    assert.equal(await isFocused(dialog.getByLabel('Command')), true);
    await page.keyboard.type('node');
    await page.keyboard.press('Tab');
    assert.equal(await isFocused(dialog.getByLabel('Arguments')), true);
    await page.keyboard.type(everythingServer);
    await page.keyboard.press('Enter'); // a new line in the arguments, not a save
    await page.keyboard.type('stdio');
    assert.equal(await dialog.getByLabel('Arguments').inputValue(), `${everythingServer}\nstdio`);
    await dialog.waitFor(); // still open

    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await dialog.getByText('A server named "Demo server" already exists.').waitFor();
    const name = dialog.getByLabel('Name');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
    assert.equal(await isFocused(name), true, 'Save moved to the field with the problem');

    // The fix, and Enter at once: no waiting for the check that follows typing.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Everything');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await waitForState(page, 'Everything', 'connected', 60_000);
    assert.match(await serverCard(page, 'Everything').innerText(), /\d+ tools/);
  });

  it('Escape closes an untouched server dialog at once; with input it asks first, starting on Keep editing', async () => {
    const { page } = app;
    const add = page.locator('.pane-head').getByRole('button', { name: 'Add server' });
    const dialog = page.getByRole('dialog', { name: 'Add a server' });
    const ask = page.getByRole('alertdialog', { name: 'Discard your changes?' });

    await add.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await ask.count(), 0, 'an untouched dialog closed without asking');

    await add.click();
    await dialog.waitFor();
    await page.keyboard.type('Half-typed');
    await page.keyboard.press('Escape');
    await ask.waitFor();
    assert.equal(await focusedText(page), 'Keep editing');
    await page.keyboard.press('Enter');
    await ask.waitFor({ state: 'detached' });
    assert.equal(await dialog.getByLabel('Name').inputValue(), 'Half-typed');
    assert.equal(await isFocused(dialog.getByLabel('Name')), true, 'the focus went back to where it was');

    // Escape inside the question answers only the question.
    await page.keyboard.press('Control+W');
    await ask.waitFor();
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    await dialog.waitFor();

    await page.keyboard.press('Escape');
    await ask.waitFor();
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focusedText(page), 'Discard');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await serverCard(page, 'Half-typed').count(), 0);
  });

  it('the provider dialog: Escape untouched closes, with input it asks, and Discard throws the input away', async () => {
    const { page } = app;
    await openSettingsAt(page, 'Models');
    const add = page.getByRole('button', { name: 'Add a provider' });
    const dialog = page.getByRole('dialog', { name: 'Add a model provider' });
    const ask = page.getByRole('alertdialog', { name: 'Discard your changes?' });

    await add.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await ask.count(), 0);

    await add.click();
    await dialog.getByLabel('Name').fill('Mine');
    await dialog.getByLabel('Name').press('Escape');
    await ask.waitFor();
    assert.equal(await focusedText(page), 'Keep editing');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(async () => (await window.go.app.ProvidersService.List()).providers.length), 0);
  });

  for (const lang of ['en', 'zh']) {
    it(`the footer of the server and provider dialogs stays in the window at 1100×760 and 800×600 (${lang})`, async () => {
      const { page } = app;
      const w = words[lang];
      if (lang === 'zh') {
        await openSettingsAt(page, 'General');
        await page.getByLabel('Language of the window').selectOption('zh-CN');
        await page.getByRole('navigation', { name: '栏目' }).waitFor();
      }
      const nav = page.getByRole('navigation', { name: lang === 'zh' ? '栏目' : 'Sections' });

      await nav.getByRole('button', { name: lang === 'zh' ? '服务器' : 'Servers' }).click();
      await page.locator('.pane-head').getByRole('button', { name: w.addServer }).click();
      const server = page.getByRole('dialog', { name: w.serverTitle });
      await server.waitFor();
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        for (const scheme of ['light', 'dark']) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.screenshot({ path: join(outputDir, `dialogs-server-${lang}-${scheme}-${width}x${height}.png`) });
        }
        await page.emulateMedia({ colorScheme: 'light' });
        assert.deepEqual(await unreachable(server, [w.save, w.cancel]), [], `the server dialog at ${width}×${height}`);
        // The reason Save waits for is in view too.
        assert.match(await server.innerText(), lang === 'zh' ? /要保存，请填写/ : /To save, fill in: Name, Command\./);
      }
      await page.keyboard.press('Escape');
      await server.waitFor({ state: 'detached' });

      await openSettingsAt(page, lang === 'zh' ? '模型' : 'Models');
      await page.getByRole('button', { name: w.addProvider }).click();
      const provider = page.getByRole('dialog', { name: w.providerTitle });
      await provider.waitFor();
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        assert.deepEqual(await unreachable(provider, [w.save, w.cancel]), [], `the provider dialog at ${width}×${height}`);
      }
      await page.screenshot({ path: join(outputDir, `dialogs-provider-${lang}-800x600.png`) });
      await page.keyboard.press('Escape');
      await provider.waitFor({ state: 'detached' });
      await page.setViewportSize({ width: 1100, height: 760 });
    });
  }

  it('the page had no errors (CSP violations included)', () => {
    assert.deepEqual(app.problems, []);
  });
});
