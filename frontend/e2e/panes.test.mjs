// Every pane as a Chinese-reading person sees it, light and dark, at the
// default window size (1100×760) and at 800×600: the closing screenshots of
// issue 12 (pane-zh-<theme>-<pane>-<w>x<h>.png), each checked for what a
// person would notice — the page scrolling sideways, a button or label cut
// off, English left in Gatehouse's own words. The panes hold real content:
// a chat with a tool call (the stand-in model, since no model runs here), a
// tool's result, history entries, a server that failed and one turned off.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { callTool, outputDir, startApp, waitForState } from './helpers.mjs';
import { addStandInProvider, lastMessage, messageText, offeredTool, startStandInModel } from './standin-model.mjs';

const sizes = [
  { width: 1100, height: 760 },
  { width: 800, height: 600 },
];

/** The panes in the sidebar's order, with their Chinese names and a sign that each has drawn. */
const panes = [
  { id: 'chat', name: '对话', ready: (page) => page.getByText('同样的计算，用 Go 写：').waitFor() },
  { id: 'servers', name: '服务器', ready: (page) => page.getByRole('listitem', { name: 'Missing program', exact: true }).waitFor() },
  { id: 'tools', name: '工具', ready: (page) => page.getByRole('region', { name: '结果' }).waitFor() },
  {
    id: 'history',
    name: '历史记录',
    ready: (page) => page.waitForFunction(() => document.querySelectorAll('table.history tr[data-outcome]').length >= 3),
  },
  { id: 'settings', name: '设置', ready: (page) => page.getByRole('heading', { name: '设置', level: 1 }).waitFor() },
];

/**
 * What a person would see as broken on screen: the page scrolling sideways,
 * a button whose label does not fit, text cut off in a box that hides its
 * overflow without an ellipsis. Returns sentences.
 */
function brokenLayout(page) {
  return page.evaluate(() => {
    const bad = [];
    const root = document.scrollingElement;
    if (root.scrollWidth > window.innerWidth + 1) bad.push(`the page scrolls sideways (${root.scrollWidth}px in ${window.innerWidth}px)`);
    for (const el of document.querySelectorAll('button, label, legend, h1, h2, h3, th, summary')) {
      if (el.getClientRects().length === 0) continue;
      const style = getComputedStyle(el);
      if (style.textOverflow === 'ellipsis') continue; // shortened on purpose, the whole text in its title
      const name = `${el.tagName.toLowerCase()} “${(el.textContent || '').trim().slice(0, 40)}”`;
      if (el.tagName === 'BUTTON' && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)) {
        bad.push(`${name} does not fit its button (${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight})`);
      } else if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) {
        bad.push(`${name} is cut off: ${el.scrollWidth}px of text in ${el.clientWidth}px`);
      }
    }
    return bad;
  });
}

/** Gatehouse's own words left in English on screen: the sidebar and headings must all be Chinese. */
function englishChrome(page) {
  return page.evaluate(() => [
    ...[...document.querySelectorAll('nav[aria-label] button, h1, th, .pane-head button')]
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => el.textContent.trim())
      .filter((text) => /^[A-Za-z][A-Za-z ]+$/.test(text) && text !== 'Gatehouse' && text !== 'JSON'),
    // A JSON tree's counts ("{2 keys}") are Gatehouse's words too.
    ...[...document.querySelectorAll('.node > summary .summary')]
      .map((el) => el.textContent.trim())
      .filter((text) => /\b(keys?|items?)\b/.test(text)),
  ]);
}

describe('every pane in Simplified Chinese, light and dark', () => {
  let app;
  let model;

  before(async () => {
    model = await startStandInModel();
    app = await startApp();
    const { page } = app;
    await addStandInProvider(page, model);
    const add = (input) =>
      page.evaluate((i) => window.go.app.ServersService.Add(i), {
        enabled: true,
        transport: 'stdio',
        args: [],
        env: {},
        dir: '',
        url: '',
        headers: {},
        ...input,
      });
    await add({ name: 'Missing program', command: '/nonexistent/mcp-server' });
    await add({ name: 'Switched off', command: '/nonexistent/other-server', enabled: false });
    await waitForState(page, 'Demo server', 'connected');
    await waitForState(page, 'Missing program', 'error');
  });
  after(async () => {
    await app?.close();
    await model?.close();
  });

  it('draws each pane with real content, nothing cut off and nothing in English, at both sizes', async () => {
    const { page } = app;
    // Content first, through the English window the helpers speak: a
    // tool's result (and its history entry) ...
    await callTool(page, 'Demo server', 'forecast', { city: 'Lisbon', days: 3 });
    await page.getByRole('region', { name: 'Result' }).waitFor({ timeout: 30_000 });

    // ... and a conversation: the model calls the demo server's add, the person allows it once.
    model.reply = (req) => {
      const last = lastMessage(req);
      if (last.role === 'user') return { toolCalls: [{ name: offeredTool(req, 'add', 'Demo server'), arguments: { a: 2, b: 40 } }] };
      if (last.role === 'tool') {
        return {
          text:
            `Demo server 算出的是 **${messageText(last)}**。\n\n同样的计算，用 Go 写：\n\n` +
            '```go\nfunc add(a, b float64) float64 {\n\treturn a + b // 42\n}\n```\n',
        };
      }
    };
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('button', { name: 'New conversation', exact: true }).first().click();
    const box = page.getByLabel('Message', { exact: true });
    await box.fill('2 加 40 等于多少？请用 Demo server 算。');
    await box.press('Enter');
    const approval = page.getByRole('dialog', { name: 'Allow a tool call on Demo server?' });
    await approval.waitFor();
    await approval.getByRole('button', { name: 'Allow once', exact: true }).click();
    await page.getByText('同样的计算，用 Go 写：').waitFor({ timeout: 30_000 });

    // Then the window in Chinese, as the person chose it in Settings.
    await page.evaluate(() => window.go.app.SettingsService.SetLanguage('zh-CN'));
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    const nav = page.getByRole('navigation', { name: '栏目' });

    for (const themeChoice of ['light', 'dark']) {
      await page.evaluate((c) => window.go.app.ThemeService.Set(c), themeChoice);
      await page.waitForFunction((c) => document.documentElement.dataset.theme === c, themeChoice);
      for (const pane of panes) {
        await nav.getByRole('button', { name: pane.name }).click();
        await pane.ready(page);
        for (const size of sizes) {
          await page.setViewportSize(size);
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          await page.screenshot({ path: join(outputDir, `pane-zh-${themeChoice}-${pane.id}-${size.width}x${size.height}.png`) });
          const where = `${pane.name} (${pane.id}), ${themeChoice}, ${size.width}×${size.height}`;
          assert.deepEqual(await brokenLayout(page), [], where);
          assert.deepEqual(await englishChrome(page), [], `Gatehouse's own words in English on ${where}`);
        }
        await page.setViewportSize(sizes[0]);
      }
    }
  });
});
