// Text as the real WebKit window draws it (issue 26, rough edges), where
// Chromium (helpers.mjs) draws differently: WebKitGTK's own date fields,
// fonts (colour emoji), overlay scroll bars and line breaks. The window of
// the dev binary is driven through WebKit's inspector (webkit-window.mjs);
// each check also saves a screenshot (test-output/window-text-*.png) for a
// person to look at.
//
// Needs: env GATEHOUSE_DEV_BIN, an X display, ImageMagick's convert, the
// colour emoji font (fonts-noto-color-emoji, scripts/deps.sh).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startWindow } from './webkit-window.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until the page expression is true; fails naming what. */
async function until(win, expr, what, timeout = 20_000) {
  for (const deadline = Date.now() + timeout; ; await sleep(150)) {
    if (await win.inspector.run(`return !!(${expr});`).catch(() => false)) return;
    if (Date.now() > deadline) {
      const shot = await win.screenshot(`window-text-timeout`).catch(() => '');
      throw new Error(`${what} did not happen within ${timeout} ms (screenshot ${shot})`);
    }
  }
}

/** The demo server's ID once it is connected. */
async function demoServer(win) {
  await until(
    win,
    `(await window.go.app.ServersService.List()).servers.some((s) => s.input.name === 'Demo server' && s.status.state === 'connected')`,
    'the demo server connecting',
    30_000,
  );
  return win.inspector.run(`return (await window.go.app.ServersService.List()).servers.find((s) => s.input.name === 'Demo server').id;`);
}

/** Clicks the sidebar's section whose name starts with name. */
function openSection(win, name) {
  return win.inspector.run(
    `[...document.querySelectorAll('nav button')].find((b) => b.textContent.trim().startsWith(${JSON.stringify(name)})).click();`,
  );
}

/** The largest colour saturation (0–1) in a rectangle of a screenshot. */
function saturation(png, { x, y, width, height }) {
  const crop = `${Math.round(width)}x${Math.round(height)}+${Math.round(x)}+${Math.round(y)}`;
  const out = execFileSync('convert', [png, '-crop', crop, '+repage', '-colorspace', 'HSL', '-channel', 'G', '-separate', '-format', '%[fx:maxima]', 'info:']);
  return Number(String(out));
}

describe('the English window', () => {
  let win;
  let demo;
  before(async () => {
    win = await startWindow({ env: { LANGUAGE: 'en', LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '' } });
    demo = await demoServer(win);
  });
  after(async () => {
    await win?.close();
  });

  it('an emoji in a server name is drawn in colour, not as an empty box', async () => {
    await win.inspector.run(`
      const s = (await window.go.app.ServersService.List()).servers.find((x) => x.id === ${JSON.stringify(demo)});
      await window.go.app.ServersService.Update(s.id, { ...s.input, name: 'Demo server 🚀🌈' });`);
    await until(win, `document.getElementById('server-${demo}-name')?.textContent.includes('🌈')`, 'the new name on the card');
    await sleep(300);
    const box = await win.inspector.run(`
      const r = document.getElementById('server-${demo}-name').getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };`);
    const png = await win.screenshot('window-text-emoji');
    const most = saturation(png, box);
    // The name's letters are grey or black (saturation near 0); a colour emoji is saturated.
    assert.ok(most > 0.5, `the server's name has colour (most saturated pixel ${most.toFixed(2)}); see ${png}`);
  });

  it('the History pane’s When column holds a date and time on one line', async () => {
    await win.inspector.run(`await window.go.app.ToolsService.Call('', ${JSON.stringify(demo)}, 'echo', JSON.stringify({ message: 'hi' }));`);
    await openSection(win, 'History');
    await until(win, `document.querySelector('table.history tbody td.when .stamp')`, 'a row in the History pane');
    const { width, lines, text } = await win.inspector.run(`
      const stamp = document.querySelector('table.history tbody td.when .stamp');
      return { width: innerWidth, lines: stamp.getClientRects().length, text: stamp.textContent };`);
    const png = await win.screenshot('window-text-history');
    assert.ok(width > 980, `the window is wide enough for the wide table (${width} px)`);
    assert.equal(lines, 1, `“${text}” is on one line; see ${png}`);
  });

  it('the Tools pane keeps its scroll bars off the inputs', async () => {
    await openSection(win, 'Tools');
    await until(win, `document.querySelector('.tool-list [data-tool="add"]')`, 'the demo server’s tools');
    await win.inspector.run(`document.querySelector('.tool-list [data-tool="add"]').click();`);
    await until(win, `document.querySelector('.tool-detail input')`, 'the form of add');
    const room = await win.inspector.run(`
      const detail = document.querySelector('.tool-detail');
      const input = detail.querySelector('input');
      const style = getComputedStyle(detail);
      return { gutter: style.scrollbarGutter, right: detail.getBoundingClientRect().right - input.getBoundingClientRect().right };`);
    await win.screenshot('window-text-tools');
    assert.equal(room.gutter, 'stable');
    // An overlay scroll bar is drawn over the column's last pixels: the inputs end before them.
    assert.ok(room.right >= 12, `the inputs end ${room.right} px before the column's right edge`);
  });

  it('a conversation’s title gets its row: Rename and Delete are in the ⋯ menu', async () => {
    const title = 'Planning the spring trip to Hangzhou and Suzhou';
    await win.inspector.run(`
      const p = await window.go.app.ProvidersService.Add({ name: 'Nowhere', kind: 'openai', preset: '', baseUrl: 'http://127.0.0.1:9/v1', model: 'none', apiKey: '', clearKey: false, quirks: {} });
      const c = await window.go.app.ChatService.NewConversation(p.id, '', '', []);
      await window.go.app.ChatService.Rename(c.id, ${JSON.stringify(title)});`);
    await openSection(win, 'Chat');
    // The list was read when the window started: an empty search reads it again.
    await win.inspector.run(`const q = document.querySelector('.conversations input[type=search]'); q.value = ''; q.dispatchEvent(new Event('input', { bubbles: true }));`);
    await until(win, `[...document.querySelectorAll('.conversations button.open')].some((b) => b.textContent === ${JSON.stringify(title)})`, 'the conversation in the list');
    await win.inspector.run(`[...document.querySelectorAll('.conversations button.open')].find((b) => b.textContent === ${JSON.stringify(title)}).click();`);
    await until(win, `document.querySelector('.conversations li.selected .more-button')`, 'the chosen conversation’s ⋯ button');
    const row = await win.inspector.run(`
      const li = document.querySelector('.conversations li.selected');
      return { row: li.clientWidth, title: li.querySelector('button.open').clientWidth, buttons: [...li.querySelectorAll('button')].map((b) => b.getAttribute('aria-label') ?? b.textContent) };`);
    assert.deepEqual(row.buttons, [title, `Actions for ${title}`]);
    assert.ok(row.title >= row.row - 48, `the title has ${row.title} of the row's ${row.row} px`);
    await win.screenshot('window-text-conversations');

    await win.inspector.run(`document.querySelector('.conversations li.selected .more-button').click();`);
    await until(win, `document.querySelector('.conversations [role="menu"]')`, 'the menu');
    const items = await win.inspector.run(`return [...document.querySelectorAll('.conversations [role="menuitem"]')].map((b) => b.textContent);`);
    assert.deepEqual(items, ['Rename', 'Delete']);
    await win.screenshot('window-text-conversation-menu');
  });
});

describe('the Chinese window on a system whose locale is English or not generated', () => {
  let win;
  let demo;
  before(async () => {
    // zh_CN.UTF-8 is not generated on the test machine: WebKit's own locale is English.
    win = await startWindow({ env: { LANGUAGE: 'zh_CN:en', LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' } });
    demo = await demoServer(win);
  });
  after(async () => {
    await win?.close();
  });

  it('a form’s date field reads year/month/day, as the window’s language writes dates', async () => {
    // WebKitGTK formats date fields in its web context's language, not the lang attribute's.
    await until(win, `navigator.language === 'zh-CN'`, "WebKit's language following the window's (navigator.language zh-CN)");
    await win.inspector.run(`window.__call = window.go.app.ToolsService.Call('e2e', ${JSON.stringify(demo)}, 'register', '').catch((e) => String(e));`);
    await until(win, `document.querySelector('dialog[open] input[type=date]')`, 'the form with its date field');
    await win.inspector.run(`document.querySelector('dialog[open] input[type=date]').scrollIntoView({ block: 'center' });`);
    await sleep(300);
    await win.screenshot('window-text-date-zh-CN');
    await win.inspector.run(`[...document.querySelectorAll('dialog[open] button')].find((b) => b.textContent.trim() === '拒绝').click();`);

    // Settings → Language: English, and WebKit follows at once.
    await win.inspector.run(`await window.go.app.SettingsService.SetLanguage('en');`);
    await until(win, `navigator.language.startsWith('en')`, "WebKit's language following Settings → Language");
  });
});
