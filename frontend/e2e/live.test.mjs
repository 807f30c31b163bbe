// A long call's progress and a server's log, in the window against the real
// core and server-everything: trigger-long-running-operation draws a bar
// that advances and Cancel stops it; toggle-simulated-logging's messages
// appear in the server's log with their level, and the level filter hides
// the ones below it. In English and Chinese; screenshots
// live-<what>-<lang>.png are for the closing note.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { callTool, everythingServer, outputDir, serverCard, startApp, waitForState } from './helpers.mjs';

/** Opens a pane with its shortcut (Ctrl+2 Servers, Ctrl+3 Tools), in any language. */
async function pane(page, name) {
  await page.keyboard.press(name === 'Servers' ? 'Control+2' : 'Control+3');
  await page.locator(name === 'Servers' ? '.servers-pane, [aria-labelledby="servers-title"]' : '.tools-pane').first().waitFor();
}

describe('progress and logs', () => {
  let app;
  before(async () => {
    app = await startApp();
    await app.page.evaluate(
      (input) => window.go.app.ServersService.Add(input),
      { name: 'Everything', enabled: true, transport: 'stdio', command: process.execPath, args: [everythingServer, 'stdio'], env: {}, dir: '', url: '', headers: {} },
    );
    await waitForState(app.page, 'Everything', 'connected', 60_000);
  });
  after(async () => {
    await app?.page.evaluate(() => window.go.app.SettingsService.SetLanguage('en')).catch(() => {});
    await app?.close();
  });

  for (const lang of ['en', 'zh-CN']) {
    const words =
      lang === 'en'
        ? { of: /^(\d+) of 20$/, cancel: 'Cancel', cancelled: 'The call was cancelled.', call: 'Call', show: 'Show', log: 'Show log' }
        : { of: /^(\d+) \/ 20$/, cancel: '取消', cancelled: null, call: null, show: '显示', log: null };

    it(`${lang}: the bar of trigger-long-running-operation advances, and Cancel stops the call`, async () => {
      const { page } = app;
      await page.evaluate((l) => window.go.app.SettingsService.SetLanguage(l), lang);
      await page.waitForFunction((l) => document.documentElement.lang === l, lang);
      await pane(page, 'Tools');
      await page.locator('#tool-server').selectOption({ label: 'Everything' });
      await page.locator('button.tool-item[data-tool="trigger-long-running-operation"]').click();
      await page.locator('#tab-json').click();
      await page.locator('#args-json').fill('{"duration": 40, "steps": 20}');
      await page.locator('.call-buttons button[type="submit"]').click();
      const amount = page.locator('.call-progress .amount');
      await amount.filter({ hasText: words.of }).waitFor({ timeout: 20_000 });
      const first = Number(words.of.exec(await amount.innerText())[1]);
      await page.waitForFunction(
        ([sel, n]) => Number.parseInt(document.querySelector(sel)?.textContent ?? '0', 10) > n,
        ['.call-progress .amount', first],
        { timeout: 20_000 },
      );
      const bar = page.locator('.call-progress progress');
      assert.equal(await bar.getAttribute('max'), '20');
      assert.ok(Number(await bar.getAttribute('value')) > first, 'the bar advances');
      await page.screenshot({ path: join(outputDir, `live-progress-${lang}.png`) });

      await page.locator('.call-buttons').getByRole('button', { name: words.cancel }).click();
      await bar.waitFor({ state: 'detached', timeout: 10_000 });
      const outcome = page.locator('.outcome .error-box');
      await outcome.waitFor();
      if (words.cancelled) assert.equal(await outcome.innerText(), words.cancelled);
    });

    it(`${lang}: simulated log messages appear in the server's log, and the level filter hides the lower ones`, async () => {
      const { page } = app;
      await page.evaluate((l) => window.go.app.SettingsService.SetLanguage(l), lang);
      if (lang === 'en') await callTool(page, 'Everything', 'toggle-simulated-logging', {}); // stays on for the Chinese run
      await pane(page, 'Servers');
      const card = serverCard(page, 'Everything');
      const toggle = card.locator('button[aria-expanded]');
      if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
      const log = card.getByRole('log');
      await log.locator('.line[data-source="server"]').first().waitFor({ timeout: 40_000 });
      // Enough lines of more than one level to filter.
      await page.waitForFunction(
        () => new Set([...document.querySelectorAll('.line[data-source="server"]')].map((l) => l.dataset.level)).size >= 2,
        null,
        { timeout: 60_000 },
      );
      await card.getByRole('log').evaluate((el) => (el.scrollTop = el.scrollHeight));
      await page.screenshot({ path: join(outputDir, `live-log-${lang}.png`) });

      await card.getByLabel(words.show, { exact: true }).selectOption('error');
      const levels = await log.locator('.line[data-source="server"]').evaluateAll((ls) => ls.map((l) => l.dataset.level));
      const low = ['debug', 'info', 'notice', 'warning'];
      assert.ok(levels.every((l) => !low.includes(l)), `lines below error still shown: ${levels}`);
      assert.ok((await log.locator('.line[data-source="gatehouse"]').count()) > 0, "Gatehouse's own lines stay");
      await page.screenshot({ path: join(outputDir, `live-log-filtered-${lang}.png`) });
      await card.getByLabel(words.show, { exact: true }).selectOption('');
    });
  }
});
