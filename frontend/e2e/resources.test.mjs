// Resources and prompts in the Tools pane, against the demo server that
// Gatehouse ships and server-everything: a text resource (hostile text
// stays text), an image, a template filled with the server's suggestions
// and read as JSON, a blob offered for saving, prompts whose arguments the
// server suggests (the first narrowing the second) and their preview, and a
// resource link in a tool result opened in Gatehouse. Screenshots in English
// and Chinese, light and dark, at 800×600 and larger.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { callTool, everythingServer, outputDir, startApp, waitForState } from './helpers.mjs';

const hostile = '<img src=x onerror="window.__pwned=1">';

const nav = (page, name) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: new RegExp(`^${name}\\b`) });

/** Opens the Tools pane on a server (by name) at one of its tabs (Tools, Resources, Prompts). */
async function openTab(page, server, tab) {
  await nav(page, 'Tools').click();
  const picker = page.getByLabel('Server', { exact: true });
  const value = await picker.locator('option', { hasText: server }).first().getAttribute('value');
  await picker.selectOption(value);
  await page.getByRole('tab', { name: tab }).click();
}

/** Chooses an item of the Resources or Prompts list by its title (back to the list first in a narrow window). */
async function choose(page, listName, title) {
  const back = page.getByRole('button', { name: /^All (resources|prompts)$/ });
  if (await back.isVisible()) await back.click();
  await page.getByRole('navigation', { name: listName }).getByRole('button', { name: new RegExp(`^${title}`) }).click();
}

/** What scrolls sideways or is cut off at the window's right edge: sentences, none when all fits. */
function sideways(page) {
  return page.evaluate(() => {
    const bad = [];
    for (const el of [document.scrollingElement, ...document.querySelectorAll('main, .tools-pane, .browse, .list-column, .detail')]) {
      if (el && el.scrollWidth > el.clientWidth + 1) bad.push(`${el.tagName.toLowerCase()}.${el.className} scrolls sideways: ${el.scrollWidth}px in ${el.clientWidth}px`);
    }
    const right = document.documentElement.clientWidth;
    for (const el of document.querySelectorAll('.tools-pane button, .tools-pane input, .tools-pane h2, .tools-pane label, .tools-pane p')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > right + 1) bad.push(`${el.tagName.toLowerCase()} “${el.textContent.trim().slice(0, 40)}” ends at ${r.right}px past ${right}px`);
    }
    return bad;
  });
}

describe('resources and prompts', () => {
  let app;
  before(async () => {
    app = await startApp();
    await app.page.evaluate(
      (input) => window.go.app.ServersService.Add(input),
      { name: 'Everything', enabled: true, transport: 'stdio', command: process.execPath, args: [everythingServer, 'stdio'], env: {}, dir: '', url: '', headers: {} },
    );
    for (const name of ['Everything', 'Demo server']) await waitForState(app.page, name, 'connected', 60_000);
  });
  after(async () => {
    await app?.close();
  });

  it('a text resource reads as text, hostile markup included, and an image is shown', async () => {
    const { page } = app;
    // The demo's note is the last message echo sent back: server text, whatever it holds.
    await openTab(page, 'Demo server', 'Tools');
    const result = await callTool(page, 'Demo server', 'echo', { message: hostile });
    await result.getByText(hostile).first().waitFor();
    await openTab(page, 'Demo server', 'Resources');
    await choose(page, 'Resources of Demo server', 'The last message echoed');
    const detail = page.locator('.detail');
    await detail.locator('pre.text', { hasText: hostile }).waitFor();
    assert.equal(await detail.locator('img').count(), 0, 'the text made no image');

    await choose(page, 'Resources of Demo server', 'Demo logo');
    const img = detail.getByRole('img', { name: 'Image from the server (image/png)' });
    await img.waitFor();
    assert.match(await img.getAttribute('src'), /^data:image\/png;base64,/);
    assert.ok(await img.evaluate((el) => el.complete && el.naturalWidth > 0), 'the PNG decoded');
    await detail.getByRole('button', { name: 'Save…' }).waitFor();
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
  });

  it("a template is filled from the server's suggestions and read as JSON", async () => {
    const { page } = app;
    await openTab(page, 'Demo server', 'Resources');
    await choose(page, 'Resources of Demo server', 'Forecast of a city');
    const city = page.getByRole('textbox', { name: 'city' });
    await city.fill('');
    await city.pressSequentially('O');
    const suggestions = page.getByRole('list', { name: 'Suggestions for city' });
    await suggestions.getByRole('button', { name: 'Oslo' }).click();
    assert.equal(await city.inputValue(), 'Oslo');
    await page.getByRole('button', { name: 'Read', exact: true }).click();
    const code = page.locator('.detail .code-block');
    await code.getByText('"city": "Oslo"').waitFor();
    await page.getByText('gatehouse-demo://forecast/Oslo').first().waitFor();
    await page.screenshot({ path: join(outputDir, 'e2e-resources-template.png') });
  });

  it('a prompt is filled with suggestions and previewed: its messages as text, its resource opens in Gatehouse', async () => {
    const { page } = app;
    await openTab(page, 'Demo server', 'Prompts');
    await choose(page, 'Prompts of Demo server', 'Plan a weekend');
    const city = page.getByRole('textbox', { name: /^City/ });
    await city.pressSequentially('Sh');
    await page.getByRole('list', { name: 'Suggestions for City' }).getByRole('button', { name: 'Shanghai' }).click();
    await page.getByRole('textbox', { name: /^Pace/ }).pressSequentially('b');
    await page.getByRole('list', { name: 'Suggestions for Pace' }).getByRole('button', { name: 'busy' }).click();
    await page.getByRole('button', { name: 'Preview' }).click();
    const messages = page.getByRole('region', { name: 'Messages the prompt makes' });
    await messages.getByText('Plan a busy weekend in Shanghai for me. Here is the forecast:').waitFor();
    assert.deepEqual(await messages.locator('.role').allInnerTexts(), ['USER', 'USER']);
    await messages.getByRole('button', { name: 'Open in Gatehouse' }).click();
    const dialog = page.getByRole('dialog', { name: 'gatehouse-demo://forecast/Shanghai' });
    await dialog.locator('.code-block').getByText('"city": "Shanghai"').waitFor();
    await page.screenshot({ path: join(outputDir, 'e2e-prompts-preview-dialog.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('a resource link in a tool result opens in Gatehouse, a web link still asks first', async () => {
    const { page } = app;
    await openTab(page, 'Demo server', 'Tools');
    const result = await callTool(page, 'Demo server', 'readme_link', {});
    assert.equal(await result.getByText('Gatehouse only opens web addresses').count(), 0);
    await result.getByRole('button', { name: 'Open in Gatehouse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Demo server read-me' });
    await dialog.locator('pre.text', { hasText: '# Gatehouse demo server' }).waitFor();
    await page.screenshot({ path: join(outputDir, 'e2e-resource-link-opened.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await result.getByRole('button', { name: 'Open in browser…' }).click();
    const consent = page.getByRole('dialog', { name: 'Open this address in your browser?' });
    await consent.waitFor();
    await consent.getByRole('button', { name: 'Cancel' }).click();
  });

  it("server-everything: a blob template offered for saving, and a prompt whose first argument narrows the second's suggestions", async () => {
    const { page } = app;
    await openTab(page, 'Everything', 'Resources');
    await choose(page, 'Resources of Everything', 'Dynamic Blob Resource');
    // Its suggestion for a number is the number itself, which is not offered again as a suggestion.
    await page.getByRole('textbox', { name: 'resourceId' }).pressSequentially('3');
    await page.getByRole('button', { name: 'Read', exact: true }).click();
    await page.locator('.detail').getByText(/demo:\/\/resource\/dynamic\/blob\/3/).first().waitFor();
    await page.locator('.detail').getByRole('button', { name: 'Save…' }).waitFor();

    await openTab(page, 'Everything', 'Prompts');
    await choose(page, 'Prompts of Everything', 'Team Management');
    await page.getByRole('textbox', { name: /^department/ }).pressSequentially('E');
    await page.getByRole('list', { name: 'Suggestions for department' }).getByRole('button', { name: 'Engineering' }).click();
    await page.getByRole('textbox', { name: /^name/ }).click();
    const names = page.getByRole('list', { name: 'Suggestions for name' });
    await names.getByRole('button', { name: 'Alice' }).waitFor();
    assert.deepEqual(await names.getByRole('button').allInnerTexts(), ['Alice', 'Bob', 'Charlie']);
    await names.getByRole('button', { name: 'Bob' }).click();
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('region', { name: 'Messages the prompt makes' }).getByText('Please promote Bob to the head of the Engineering team.').waitFor();
  });

  it('screenshots in English and Chinese, light and dark, at 800×600 and 1280×800, with nothing cut off', async () => {
    const { page } = app;
    const shots = [
      ['resources', 'Resources', 'Resources of Demo server', 'Forecast of a city'],
      ['prompts', 'Prompts', 'Prompts of Demo server', 'Plan a weekend'],
    ];
    for (const [file, tab, list, item] of shots) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await openTab(page, 'Demo server', tab);
      await choose(page, list, item);
      for (const [lang, theme] of [
        ['en', 'light'],
        ['en', 'dark'],
        ['zh-CN', 'light'],
        ['zh-CN', 'dark'],
      ]) {
        await page.evaluate(([l, th]) => Promise.all([window.go.app.SettingsService.SetLanguage(l), window.go.app.ThemeService.Set(th)]), [lang, theme]);
        await page.locator(`html[lang="${lang}"][data-theme="${theme}"]`).waitFor();
        for (const [width, height] of [
          [1280, 800],
          [800, 600],
        ]) {
          await page.setViewportSize({ width, height });
          await page.waitForTimeout(150);
          assert.deepEqual(await sideways(page), [], `${file} ${lang} ${theme} at ${width}×${height}`);
          await page.screenshot({ path: join(outputDir, `e2e-${file}-${lang}-${theme}-${width}x${height}.png`) });
        }
      }
      await page.evaluate(() => Promise.all([window.go.app.SettingsService.SetLanguage('en'), window.go.app.ThemeService.Set('system')]));
      await page.locator('html[lang="en"]').waitFor();
    }
    // The list at 800×600, which the narrow pane shows on its own.
    await page.setViewportSize({ width: 800, height: 600 });
    await openTab(page, 'Everything', 'Resources');
    const back = page.getByRole('button', { name: 'All resources' });
    if (await back.isVisible()) await back.click();
    await page.getByRole('navigation', { name: 'Resources of Everything' }).waitFor();
    assert.deepEqual(await sideways(page), []);
    await page.screenshot({ path: join(outputDir, 'e2e-resources-list-800x600.png') });
    await page.setViewportSize({ width: 1100, height: 760 });
  });

  it('the page had no errors (CSP violations included)', () => {
    assert.deepEqual(app.problems, []);
  });
});
