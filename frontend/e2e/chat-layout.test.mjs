// The chat at the window sizes people use (issue 12: "at 800×600 the
// conversation list, the transcript and the composer fight for space"),
// against the real core, server-everything and the stand-in model
// (standin-model.mjs; see chat.test.mjs). A conversation with a tool call
// whose arguments and result are one long word, a long code line and a long
// address is shown at 1920×1080, 1100×760 and 800×600: the composer, the
// newest message and the way to switch conversations are all on screen, and
// nothing scrolls sideways. At 800×600 the conversations fold behind a
// button. Screenshots in English and Chinese, light and dark.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { everythingServer, outputDir, startApp, waitForState } from './helpers.mjs';
import { addStandInProvider, lastMessage, messageText, offeredTool, startStandInModel } from './standin-model.mjs';

const sizes = [
  [1920, 1080],
  [1100, 760],
  [800, 600],
];
const longWord = 'gatehouse-'.repeat(30); // 300 characters, no space to break at
const conversation = (page) => page.locator('section.conversation');

/** Waits until the running turn has ended. */
async function turnEnded(page) {
  await conversation(page).locator('[aria-busy="true"]').waitFor({ state: 'detached', timeout: 30_000 });
}

/** Sends text in a new conversation and waits for the whole answer. */
async function talk(page, text) {
  await page.getByRole('button', { name: 'New conversation', exact: true }).first().click();
  const box = page.getByLabel('Message', { exact: true });
  await box.fill(text);
  await box.press('Enter');
  await turnEnded(page);
}

/** Whether el's box lies inside the viewport (at least partly for tall ones: its bottom edge). */
async function onScreen(locator) {
  const box = await locator.boundingBox();
  const vp = locator.page().viewportSize();
  if (!box) return false;
  return box.x >= 0 && box.x + box.width <= vp.width + 1 && box.y + box.height > 0 && box.y + box.height <= vp.height + 1;
}

/** What scrolls sideways or reaches past the window's right edge: sentences, none when all fits. */
function sideways(page) {
  return page.evaluate(() => {
    const bad = [];
    const scrollers = [document.scrollingElement, ...document.querySelectorAll('main, .chat, .messages, .list, .composer')];
    for (const el of scrollers) {
      if (el && el.scrollWidth > el.clientWidth + 1) {
        bad.push(`${el.tagName.toLowerCase()}.${el.className} scrolls sideways: ${el.scrollWidth}px in ${el.clientWidth}px`);
      }
    }
    // A box that scrolls by itself (a code block's long line) holds what is inside it.
    const clipped = (el) => {
      for (let p = el.parentElement; p && !p.classList.contains('messages'); p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') return true;
      }
      return false;
    };
    const right = document.documentElement.clientWidth;
    for (const el of document.querySelectorAll('.conversation *')) {
      if (clipped(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > right + 1) bad.push(`${el.tagName.toLowerCase()}.${el.className} ends at ${Math.round(r.right)}px, past ${right}px`);
    }
    return bad.slice(0, 10);
  });
}

describe('the chat at 1920×1080, 1100×760 and 800×600', () => {
  let app;
  let model;

  before(async () => {
    model = await startStandInModel();
    model.reply = (req) => {
      const last = lastMessage(req);
      const asked = last.role === 'user' ? messageText(last) : '';
      if (asked.startsWith('Echo')) return { toolCalls: [{ name: offeredTool(req, 'echo', 'Everything'), arguments: { message: longWord } }] };
      if (last.role === 'tool') {
        return {
          text:
            `The server answered with ${messageText(last).length} characters.\n\n` +
            '```sh\n' +
            `curl --header 'X-Long: ${'y'.repeat(180)}' https://example.com/\n` +
            '```\n\n' +
            `See https://example.com/${'path/'.repeat(40)} for more.`,
        };
      }
      return { text: `You said: ${asked}` };
    };
    app = await startApp();
    const { page } = app;
    await addStandInProvider(page, model);
    await page.evaluate(
      (input) => window.go.app.ServersService.Add(input),
      { name: 'Everything', enabled: true, transport: 'stdio', command: process.execPath, args: [everythingServer, 'stdio'], env: {}, dir: '', url: '', headers: {} },
    );
    await waitForState(page, 'Everything', 'connected');
    // Its tools run without asking here: this test is about the layout, chat.test.mjs about the asking.
    await page.evaluate(async () => {
      const s = (await window.go.app.ServersService.List()).servers.find((x) => x.input.name === 'Everything');
      await window.go.app.PoliciesService.SetMode(s.id, 'allow');
    });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Chat' }).click();
    for (const topic of ['Plans for the weekend', 'A question about bbolt', 'Trip to Hangzhou', 'Notes from the meeting']) await talk(page, topic);
    await talk(page, 'Echo a very long word, please');
    await conversation(page).locator('section[aria-label="Tool call echo"][data-state="done"]').waitFor();
  });
  after(async () => {
    await app?.close();
    await model?.close();
  });

  for (const [width, height] of sizes) {
    it(`at ${width}×${height} the composer, the newest message and the conversation switcher are on screen, and nothing scrolls sideways`, async () => {
      const { page } = app;
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(150); // the transcript keeps its end in view after the resize
      const composer = page.getByLabel('Message', { exact: true });
      assert.ok(await onScreen(composer), `the composer is on screen at ${width}×${height}`);
      assert.ok(await onScreen(page.getByRole('button', { name: 'Send' })), 'Send is on screen');
      const newest = conversation(page).locator('.message').last();
      assert.match(await newest.innerText(), /See https:\/\/example\.com\//);
      assert.ok(await onScreen(newest), `the newest message ends on screen at ${width}×${height}`);
      assert.deepEqual(await sideways(page), [], `at ${width}×${height}`);

      const list = page.getByRole('complementary', { name: 'Conversations' });
      const toggle = page.getByRole('button', { name: 'Conversations' });
      if (width >= 1100) {
        assert.ok(await list.isVisible(), 'the list is beside the transcript');
        assert.equal(await toggle.isVisible(), false, 'no button to open what is already open');
      } else {
        assert.equal(await list.isVisible(), false, 'the list is folded away');
        assert.ok(await onScreen(toggle), 'the Conversations button is on screen');
        const box = await conversation(page).boundingBox();
        assert.ok(box.width > 500, `the transcript gets the width: ${box.width}px`);
      }
      await page.screenshot({ path: join(outputDir, `e2e-chat-${width}x${height}.png`) });
    });
  }

  it('at 800×600 the Conversations button opens the list over the transcript, and choosing one folds it again', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 800, height: 600 });
    const toggle = page.getByRole('button', { name: 'Conversations' });
    const list = page.getByRole('complementary', { name: 'Conversations' });
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await list.waitFor();
    assert.ok(await onScreen(list.getByRole('button', { name: 'Trip to Hangzhou', exact: true })), 'the conversations are on screen');
    assert.deepEqual(await sideways(page), []);
    await page.screenshot({ path: join(outputDir, 'e2e-chat-800x600-list.png') });
    await list.getByRole('button', { name: 'Trip to Hangzhou', exact: true }).click();
    await list.waitFor({ state: 'hidden' });
    await conversation(page).getByRole('heading', { name: 'Trip to Hangzhou', level: 1 }).waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');

    // Escape folds it too, and gives the focus back to the button.
    await toggle.click();
    await list.waitFor();
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), '☰ Conversations');
  });

  it('screenshots in Chinese and in dark, at 1100×760 and 800×600', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Conversations' }).click().catch(() => {});
    await page.setViewportSize({ width: 1100, height: 760 });
    await page.getByRole('complementary', { name: 'Conversations' }).getByRole('button', { name: /^Echo a very long word/ }).click();
    for (const [lang, theme] of [
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
        await page.waitForTimeout(150);
        assert.deepEqual(await sideways(page), [], `${lang} ${theme} at ${width}×${height}`);
        await page.screenshot({ path: join(outputDir, `e2e-chat-${lang}-${theme}-${width}x${height}.png`) });
      }
    }
    await page.evaluate(() => Promise.all([window.go.app.SettingsService.SetLanguage(''), window.go.app.ThemeService.Set('system')]));
    assert.deepEqual(app.problems, []);
  });
});
