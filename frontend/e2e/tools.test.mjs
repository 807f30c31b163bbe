// The Tools pane as a person finds it, against the real core with
// server-everything (many tools) and the demo server: choosing the last tool
// of a long list shows its form in view at 1100×760, 800×600 and 1920×1080
// (the list and the tool scroll each on their own, the page never as one
// piece); a wide window shows the form and the result side by side; the
// filter; and coming back from History finds the server, the tool, the
// typed arguments and the last result as they were left. Screenshots
// tools-<lang>-<theme>-<w>x<h>.png are for the closing note.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { everythingServer, outputDir, pressCall, startApp, waitForState } from './helpers.mjs';

const sizes = [
  { width: 1100, height: 760 },
  { width: 800, height: 600 },
  { width: 1920, height: 1080 },
];

const nav = (page, name) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: new RegExp(`^${name}\\b`) });
const toolList = (page, server) => page.getByRole('navigation', { name: `Tools of ${server}` });
const filter = (page, server) => page.getByRole('searchbox', { name: `Filter the tools of ${server}` });
const back = (page) => page.getByRole('button', { name: 'All tools' });

/** Opens the Tools pane on a server (by name). */
async function showServer(page, name) {
  await nav(page, 'Tools').click();
  const picker = page.getByLabel('Server', { exact: true });
  const value = await picker.locator('option', { hasText: name }).first().getAttribute('value');
  await picker.selectOption(value);
}

/** Waits two frames, so that a new size or scroll position has been laid out. */
const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** The element's box, and whether all of it is inside the window. */
async function inView(page, locator) {
  const box = await locator.boundingBox();
  const { width, height } = page.viewportSize();
  assert.ok(box, 'the element is not shown');
  return { box, inside: box.x >= 0 && box.y >= 0 && box.x + box.width <= width + 0.5 && box.y + box.height <= height + 0.5 };
}

/** The scroll positions of the window, the main area, the tool list and the tool panel. */
function scrolls(page) {
  return page.evaluate(() => ({
    page: document.scrollingElement.scrollTop,
    main: document.querySelector('main').scrollTop,
    list: document.querySelector('.tool-list')?.scrollTop ?? -1,
    panel: document.querySelector('.tool-detail')?.scrollTop ?? -1,
  }));
}

describe('the Tools pane', () => {
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
    await app?.page.setViewportSize(sizes[0]).catch(() => {});
    await app?.close();
  });

  for (const size of sizes) {
    it(`choosing the last tool shows its form in view at ${size.width}×${size.height}, the list scrolling on its own`, async () => {
      const { page } = app;
      await page.setViewportSize(size);
      await showServer(page, 'Everything');
      const list = toolList(page, 'Everything');
      if (await back(page).isVisible()) await back(page).click();
      const items = list.locator('button.tool-item');
      await items.nth(12).waitFor(); // server-everything lists more tools than fit
      const last = items.last();
      const lastName = await last.getAttribute('data-tool');
      await last.scrollIntoViewIfNeeded();
      const before = await scrolls(page);
      assert.ok(before.list > 0, `the list scrolled to its last tool: ${JSON.stringify(before)}`);
      await last.click();

      const heading = page.getByRole('heading', { level: 2 });
      await heading.waitFor();
      assert.equal(await page.locator('code', { hasText: lastName }).count() > 0, true);
      await settle(page);
      const firstControl = page.locator('#panel-args').locator('input, textarea, select').first();
      for (const [what, locator] of [
        ['the tool heading', heading],
        ['its first argument', firstControl],
      ]) {
        const { box, inside } = await inView(page, locator);
        assert.ok(inside, `${what} is out of view at ${size.width}×${size.height}: ${JSON.stringify(box)}`);
      }
      const after = await scrolls(page);
      assert.equal(after.page, 0, 'the window itself scrolled');
      assert.equal(after.main, 0, 'the pane scrolled as one piece');
      assert.equal(after.panel, 0, 'the tool panel starts at its top');

      const narrow = size.width < 1000;
      if (narrow) {
        // One column at a time: the tool, with a way back to the list on the chosen tool.
        assert.equal(await list.isVisible(), false);
        await page.screenshot({ path: join(outputDir, `tools-narrow-tool-${size.width}x${size.height}.png`) });
        await back(page).click();
        await settle(page);
        const chosen = list.locator('button[aria-current="true"]');
        assert.equal(await chosen.getAttribute('data-tool'), lastName);
        assert.ok((await inView(page, chosen)).inside, 'back in the list, the chosen tool is in view');
        assert.ok(await chosen.evaluate((el) => el === document.activeElement), 'focus is on the chosen tool');
        await last.click();
      } else {
        // Side by side: the list stayed where it was, and the chosen tool is still in view in it.
        assert.equal(after.list, before.list, 'the list moved when the tool was chosen');
        assert.ok((await inView(page, last)).inside, 'the chosen tool went out of view in the list');
        // Scrolling the panel leaves the list where it is, and the other way round.
        await page.locator('.tool-detail').evaluate((el) => (el.scrollTop = el.scrollHeight));
        await page.locator('.tool-list').evaluate((el) => (el.scrollTop = 0));
        await settle(page);
        const moved = await scrolls(page);
        assert.equal(moved.list, 0);
        assert.equal(moved.main, 0);
        assert.equal(moved.panel, await page.locator('.tool-detail').evaluate((el) => el.scrollHeight - el.clientHeight));
      }
    });
  }

  it('a wide window gives the form and the result the width, side by side', async () => {
    const { page } = app;
    await page.setViewportSize(sizes[2]);
    await showServer(page, 'Everything');
    await toolList(page, 'Everything').locator('button[data-tool="echo"]').click();
    const message = page.getByRole('tabpanel', { name: 'Form' }).getByLabel(/message/i);
    await message.fill('hello from a wide window');
    const result = await pressCall(page);
    await result.getByText(/hello from a wide window/).waitFor();
    const listBox = await page.locator('.list-column').boundingBox();
    const formBox = await page.locator('form.call-form').boundingBox();
    const resultBox = await result.boundingBox();
    assert.ok(listBox.width <= 0.3 * sizes[2].width, `the list takes ${listBox.width}px of ${sizes[2].width}`);
    assert.ok(resultBox.x >= formBox.x + formBox.width, 'the result is beside the form');
    assert.ok(resultBox.y < formBox.y + formBox.height, 'the result starts level with the form');
    assert.ok(resultBox.x + resultBox.width > 0.85 * sizes[2].width, `the result reaches across the window: ends at ${resultBox.x + resultBox.width}`);
    await page.setViewportSize(sizes[0]);
  });

  it('at 800×600 the result of a call below the fold is brought into view', async () => {
    const { page } = app;
    await page.setViewportSize(sizes[1]);
    await showServer(page, 'Demo server');
    if (await back(page).isVisible()) await back(page).click();
    await toolList(page, 'Demo server').locator('button[data-tool="divide"]').click();
    await page.getByRole('tab', { name: 'JSON' }).click();
    await page.getByLabel('Arguments (JSON object)').fill('{"a": 1, "b": 4}');
    await page.getByText('Input schema', { exact: true }).click(); // opened, it pushes the result below the fold
    // The person scrolled the panel just far enough to see Call at its bottom edge, and presses it.
    const call = page.getByRole('button', { name: 'Call', exact: true });
    await page.locator('.tool-detail').evaluate((panel) => {
      const button = panel.querySelector('button[type="submit"]');
      panel.scrollTop += button.getBoundingClientRect().bottom - panel.getBoundingClientRect().bottom + 4;
    });
    assert.ok((await inView(page, call)).inside);
    await call.evaluate((b) => b.click());
    const result = page.getByRole('region', { name: 'Result' });
    await result.waitFor();
    await settle(page);
    const { box } = await inView(page, result.getByText('Result', { exact: true }));
    assert.ok(box.y + box.height <= sizes[1].height, `the result's heading is below the window: ${JSON.stringify(box)}`);
    assert.equal((await scrolls(page)).main, 0);
    await page.setViewportSize(sizes[0]);
  });

  it('the filter narrows the list by name, title or description, counts, says when nothing matches, and Escape clears it', async () => {
    const { page } = app;
    await page.setViewportSize(sizes[0]);
    await showServer(page, 'Everything');
    const list = toolList(page, 'Everything');
    const items = list.locator('button.tool-item');
    await items.nth(12).waitFor();
    const total = await items.count();
    const box = filter(page, 'Everything');
    const count = page.getByRole('status').filter({ hasText: /tools?$/ });
    assert.equal(await count.innerText(), `${total} tools`);

    await box.fill('ECHO');
    await list.locator('button[data-tool="echo"]').waitFor();
    assert.equal(await items.count(), 1, 'by name, in any case');
    assert.equal(await count.innerText(), `1 of ${total} tools`);
    // Words of the description count too: "Echoes back the input" is echo's.
    await box.fill('echoes back');
    assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.dataset.tool)), ['echo']);

    await box.fill('no such tool anywhere');
    await list.getByText('No tool matches “no such tool anywhere”.').waitFor();
    assert.equal(await items.count(), 0);
    assert.equal(await count.innerText(), `0 of ${total} tools`);
    await page.screenshot({ path: join(outputDir, 'tools-filter-none.png') });

    await box.press('Escape');
    assert.equal(await box.inputValue(), '');
    assert.equal(await items.count(), total);

    // From the filter the keys lead into the list: Enter shows the first match, arrows move between tools.
    await box.fill('sum');
    await box.press('Enter');
    await page.getByRole('heading', { level: 2 }).and(page.locator(':focus')).waitFor();
    assert.equal(await list.locator('button[aria-current="true"]').getAttribute('data-tool'), await items.first().getAttribute('data-tool'));
    await box.fill('');
    await box.press('ArrowDown');
    assert.equal(await items.first().evaluate((el) => el === document.activeElement), true);
    await page.keyboard.press('ArrowDown');
    assert.equal(await items.nth(1).evaluate((el) => el === document.activeElement), true);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    assert.equal(await box.evaluate((el) => el === document.activeElement), true);
  });

  it('switching to History and back keeps the server, the tool, the typed arguments and the last result', async () => {
    const { page } = app;
    await page.setViewportSize(sizes[0]);
    await showServer(page, 'Demo server');
    const list = toolList(page, 'Demo server');
    const field = (name) => page.getByRole('tabpanel', { name: 'Form' }).getByLabel(new RegExp(`^${name}(\\s|\\*|$)`));
    await list.locator('button[data-tool="add"]').click();
    await field('a').fill('2');
    await field('b').fill('40');
    const result = await pressCall(page);
    await result.getByText('2 + 40 = 42').waitFor();
    // A second tool's arguments are kept too, apart from the first's.
    await list.locator('button[data-tool="forecast"]').click();
    await page.getByRole('tab', { name: 'Form' }).click();
    await field('city').fill('Oslo');
    await list.locator('button[data-tool="add"]').click();
    await field('b').fill('41');

    await nav(page, 'History').click();
    await page.getByRole('heading', { level: 1, name: 'History' }).waitFor();
    await nav(page, 'Tools').click();

    assert.equal(await page.getByLabel('Server', { exact: true }).locator('option:checked').innerText(), 'Demo server');
    assert.equal(await list.locator('button[aria-current="true"]').getAttribute('data-tool'), 'add');
    assert.equal(await field('a').inputValue(), '2');
    assert.equal(await field('b').inputValue(), '41');
    await page.getByRole('region', { name: 'Result' }).getByText('2 + 40 = 42').waitFor();
    await list.locator('button[data-tool="forecast"]').click();
    assert.equal(await field('city').inputValue(), 'Oslo');
    assert.deepEqual(app.problems, []);
  });

  it('looks right in English and Chinese, light and dark, at each size', async () => {
    const { page } = app;
    await showServer(page, 'Everything');
    await toolList(page, 'Everything').locator('button[data-tool="echo"]').click();
    for (const lang of ['en', 'zh-CN']) {
      await page.evaluate((l) => window.go.app.SettingsService.SetLanguage(l), lang);
      await page.locator(`html[lang="${lang}"]`).waitFor();
      for (const theme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: theme });
        for (const size of sizes) {
          await page.setViewportSize(size);
          await settle(page);
          await page.screenshot({ path: join(outputDir, `tools-${lang}-${theme}-${size.width}x${size.height}.png`) });
          // Nothing in the pane reaches outside the window.
          const outside = await page.evaluate(() =>
            [...document.querySelectorAll('.tools-pane *')]
              .filter((el) => el.getClientRects().length > 0)
              .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
              .map((el) => `${el.tagName} ${el.className}`),
          );
          assert.deepEqual(outside, [], `at ${lang} ${theme} ${size.width}×${size.height}`);
          // A narrow window shows one column at a time: the list too.
          const backButton = page.locator('button.back');
          if (await backButton.isVisible()) {
            await backButton.click();
            await page.screenshot({ path: join(outputDir, `tools-${lang}-${theme}-${size.width}x${size.height}-list.png`) });
            await page.locator('button[data-tool="echo"]').click();
          }
        }
      }
    }
    await page.evaluate(() => window.go.app.SettingsService.SetLanguage(''));
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(sizes[0]);
  });
});
