// Light and dark against the real Go core: Settings → Theme switches the
// page to dark at once, Go keeps the choice (a reload shows it again), and
// every text on screen meets WCAG AA as it is drawn: in the dark theme on
// every pane and in the consent dialogs, in the light theme on every pane. The screenshots (dark-*.png, at the
// default window size 1100×760 and at 800×600) are for the closing note.
//
// The model in the chat is a STAND-IN (standin-model.mjs): no model can run
// on these machines. The servers are real: the demo server Gatehouse ships,
// and a server whose program does not exist (an error state to show).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { callForm, openTool, outputDir, startApp, waitForState } from './helpers.mjs';
import { addStandInProvider, lastMessage, messageText, offeredTool, startStandInModel } from './standin-model.mjs';

const sizes = [
  { width: 1100, height: 760 },
  { width: 800, height: 600 },
];
// By the start of the name: Servers carries the count of servers with an error.
const nav = (page, name) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: new RegExp(`^${name}\\b`) });
const consent = (page) => page.getByRole('dialog', { name: /is asking for your input$/ });

/** The page's background and colour scheme as the browser computed them. */
function look(page) {
  return page.evaluate(() => {
    const root = getComputedStyle(document.documentElement);
    return { theme: document.documentElement.dataset.theme, background: root.backgroundColor, scheme: root.colorScheme };
  });
}

/** WCAG relative luminance of a computed rgb()/rgba() colour. */
function luminance(rgb) {
  const [r, g, b] = rgb.match(/[\d.]+/g).slice(0, 3).map(Number).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Every visible piece of text on screen whose contrast with what is behind
 * it is below WCAG AA (4.5:1; 3:1 for large text and disabled buttons, which
 * WCAG exempts but we keep readable), as the browser drew it: the text's
 * computed colour against the first opaque background behind it, with
 * translucent backgrounds on the way blended in.
 */
function poorContrast(page) {
  return page.evaluate(() => {
    const parse = (c) => {
      const m = c.match(/[\d.]+/g);
      if (!m) return null;
      const [r, g, b, a = 1] = m.map(Number);
      return { r, g, b, a: c.startsWith('rgba') || m.length === 4 ? a : 1 };
    };
    const over = (fg, bg) => ({
      r: fg.r * fg.a + bg.r * (1 - fg.a),
      g: fg.g * fg.a + bg.g * (1 - fg.a),
      b: fg.b * fg.a + bg.b * (1 - fg.a),
      a: 1,
    });
    const lum = ({ r, g, b }) =>
      [r, g, b]
        .map((c) => c / 255)
        .map((s) => (s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4))
        .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const ratio = (a, b) => {
      const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    };
    const backgroundOf = (el) => {
      const layers = [];
      for (let e = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg && bg.a > 0) {
          layers.push(bg);
          if (bg.a === 1) break;
        }
        // An open modal dialog sits on the page behind its backdrop.
        if (e.tagName === 'DIALOG' && e.open) {
          const backdrop = parse(getComputedStyle(e, '::backdrop').backgroundColor);
          if (backdrop && backdrop.a > 0) layers.push(backdrop);
        }
      }
      let color = parse(getComputedStyle(document.documentElement).backgroundColor);
      for (const layer of layers.reverse()) color = over(layer, color);
      return color;
    };
    const poor = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim()) continue;
      const el = node.parentElement;
      const rect = el.getBoundingClientRect();
      if (!rect.width || !rect.height || rect.bottom < 0 || rect.top > innerHeight || rect.right < 0 || rect.left > innerWidth) continue;
      const style = getComputedStyle(el);
      if (style.visibility !== 'visible' || Number(style.opacity) === 0) continue;
      // Behind an open modal dialog the page is inert and dimmed: only the dialog counts.
      const modal = document.querySelector('dialog[open]:modal');
      if (modal && !modal.contains(el)) continue;
      const bg = backgroundOf(el);
      const fg = over(parse(style.color), bg);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const disabled = el.closest('button:disabled, [aria-disabled="true"]') !== null;
      const min = large || disabled ? 3 : 4.5;
      const r = ratio(fg, bg);
      if (r < min) poor.push(`“${node.textContent.trim().slice(0, 40)}” ${style.color} on ${JSON.stringify(bg)}: ${r.toFixed(2)}:1 < ${min}`);
    }
    return poor;
  });
}

/** Sets the window size, checks every text on screen, and saves dark-<name>-<w>x<h>.png. */
async function shoot(page, name, size) {
  await page.setViewportSize(size);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: join(outputDir, `dark-${name}-${size.width}x${size.height}.png`) });
  assert.deepEqual(await poorContrast(page), [], `text below WCAG AA on ${name} at ${size.width}×${size.height}`);
}

describe('the dark theme', () => {
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

  it('Dark in Settings darkens the page at once, Go keeps it, and a reload shows it again', async () => {
    const { page } = app;
    // The test bus has no settings portal: Go states no preference and the
    // page follows Chromium's, which is light.
    const before = await look(page);
    assert.equal(before.theme, undefined);
    assert.ok(luminance(before.background) > 0.8, `light at first: ${before.background}`);
    assert.deepEqual(await page.evaluate(() => window.go.app.ThemeService.Get()), { choice: 'system', system: '' });

    await nav(page, 'Settings').click();
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const dark = await look(page);
    assert.equal(dark.background, 'rgb(21, 24, 28)');
    assert.ok(luminance(dark.background) < 0.02, `dark: ${dark.background}`);
    assert.equal(dark.scheme, 'dark', 'native controls are drawn dark');
    assert.equal((await page.evaluate(() => window.go.app.ThemeService.Get())).choice, 'dark');

    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const again = await look(page);
    assert.equal(again.background, 'rgb(21, 24, 28)');
    await nav(page, 'Settings').click();
    assert.equal(await page.getByLabel('Theme', { exact: true }).inputValue(), 'dark');
    assert.equal(
      await page.getByLabel('Theme', { exact: true }).evaluate((el) => getComputedStyle(el).colorScheme),
      'dark',
      'the select itself is drawn in the dark scheme',
    );
  });

  it('every pane and the consent dialogs meet WCAG AA as drawn, dark at 1100×760 and 800×600, then light', async () => {
    const { page } = app;
    assert.equal((await look(page)).theme, 'dark');

    // Chat: the model calls the demo server's add; the approval is a consent dialog.
    model.reply = (req) => {
      const last = lastMessage(req);
      if (last.role === 'user') return { toolCalls: [{ name: offeredTool(req, 'add', 'Demo server'), arguments: { a: 2, b: 40 } }] };
      if (last.role === 'tool') {
        return {
          text:
            `The demo server says **${messageText(last)}**.\n\nThe same in Go:\n\n` +
            '```go\nfunc add(a, b float64) float64 {\n\treturn a + b // 42\n}\n```\n',
        };
      }
    };
    await nav(page, 'Chat').click();
    await page.getByRole('button', { name: 'New conversation', exact: true }).first().click();
    const box = page.getByLabel('Message', { exact: true });
    await box.fill('What is 2 + 40? Ask the demo server.');
    await box.press('Enter');
    const approval = page.getByRole('dialog', { name: 'Allow a tool call on Demo server?' });
    await approval.waitFor();
    for (const size of sizes) await shoot(page, 'consent-tool-call', size);
    await approval.getByRole('button', { name: 'Allow once', exact: true }).click();
    await page.getByText('The model is answering…').waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByText('The same in Go:').waitFor();
    for (const size of sizes) await shoot(page, 'chat', size);

    // A form from a server.
    await openTool(page, 'Demo server', 'register');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    const form = consent(page);
    await form.waitFor();
    await form.getByLabel(/^Email/).fill('ada-at-example');
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.getByText('Enter an email address, like name@example.com.').waitFor();
    for (const size of sizes) await shoot(page, 'consent-form', size);
    await form.getByRole('button', { name: 'Decline' }).click();
    await form.waitFor({ state: 'detached' });

    // A web page to open, with a look-alike domain.
    await openTool(page, 'Demo server', 'lookalike_link');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    const url = consent(page);
    await url.waitFor();
    await url.getByTestId('url').locator('mark').waitFor();
    for (const size of sizes) await shoot(page, 'consent-url', size);
    await url.getByRole('button', { name: 'Decline' }).click();
    await url.waitFor({ state: 'detached' });

    // Tools: a structured result.
    await openTool(page, 'Demo server', 'forecast');
    await callForm(page).waitFor();
    const jsonTab = page.getByRole('tab', { name: 'JSON' });
    if (await jsonTab.count()) await jsonTab.click();
    await page.getByLabel('Arguments (JSON object)').fill('{"city": "Lisbon", "days": 3}');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page.getByRole('region', { name: 'Result' }).waitFor({ timeout: 30_000 });
    // The pane scrolled down to the result; show the form and the result's start.
    await page.locator('main.content').evaluate((el) => el.scrollTo(0, 0));
    for (const size of sizes) await shoot(page, 'tools', size);

    await nav(page, 'Servers').click();
    await page.getByRole('listitem', { name: 'Missing program', exact: true }).waitFor();
    for (const size of sizes) await shoot(page, 'servers', size);

    await nav(page, 'History').click();
    await page.waitForFunction(() => document.querySelectorAll('table.history tr[data-outcome]').length >= 2);
    for (const size of sizes) await shoot(page, 'history', size);

    await nav(page, 'Settings').click();
    await page.getByLabel('Theme', { exact: true }).waitFor();
    for (const size of sizes) await shoot(page, 'settings', size);

    // The light theme, as drawn, on the same panes.
    await page.setViewportSize(sizes[0]);
    await page.getByLabel('Theme', { exact: true }).selectOption('light');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    for (const pane of ['Chat', 'Servers', 'Tools', 'History', 'Settings']) {
      await nav(page, pane).click();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      assert.deepEqual(await poorContrast(page), [], `text below WCAG AA on ${pane} in the light theme`);
    }
  });
});
