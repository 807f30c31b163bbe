// The window in Simplified Chinese against the real core and the demo
// server: the person chooses 简体中文 in Settings, and every pane, the consent
// dialog and the URL dialog speak Chinese at once, with Go's own sentences
// (hints, link warnings) in Chinese too and the server's text as it was
// written. The dialogs are screenshotted at 1100×760 and 800×600 (needs a CJK
// font: fonts-noto-cjk), and no button, label or heading may be cut off.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outputDir, startApp, waitForState, openSettingsAt } from './helpers.mjs';

const nav = (page) => page.getByRole('navigation', { name: '栏目' });

/** Opens the Tools pane (in Chinese) on the demo server and calls a tool that asks something first. */
async function startCall(page, tool) {
  await nav(page).getByRole('button', { name: '工具' }).click();
  const picker = page.getByLabel('服务器', { exact: true });
  const value = await picker.locator('option', { hasText: 'Demo server' }).first().getAttribute('value');
  await picker.selectOption(value);
  await page.getByRole('navigation', { name: 'Demo server 的工具' }).locator(`button[data-tool="${tool}"]`).click();
  await page.getByRole('button', { name: '调用', exact: true }).click();
}

/**
 * What is cut off in a dialog: a control or text whose content overflows its
 * box, or that reaches outside the dialog left or right. Returns sentences.
 */
function clipped(dialog) {
  return dialog.evaluate((d) => {
    const box = d.getBoundingClientRect();
    const bad = [];
    for (const el of d.querySelectorAll('button, label, legend, h2, p, li, summary, select, input')) {
      if (el.getClientRects().length === 0) continue; // not shown
      const style = getComputedStyle(el);
      const name = `${el.tagName.toLowerCase()} “${(el.textContent || el.value || '').trim().slice(0, 40)}”`;
      if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1 && el.tagName !== 'SELECT' && el.tagName !== 'INPUT') {
        bad.push(`${name} is cut off: ${el.scrollWidth}px of text in ${el.clientWidth}px`);
      }
      if (el.tagName === 'BUTTON' && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)) {
        bad.push(`${name} does not fit its button (${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight})`);
      }
      const r = el.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1) {
        bad.push(`${name} reaches outside the dialog (${Math.round(r.left)}–${Math.round(r.right)} in ${Math.round(box.left)}–${Math.round(box.right)})`);
      }
    }
    return bad;
  });
}

/** Checks a dialog at the two window sizes the issue names, screenshotting each. */
async function checkLayout(page, dialog, name) {
  for (const [w, h] of [
    [1100, 760],
    [800, 600],
  ]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: join(outputDir, `e2e-zh-${name}-${w}x${h}.png`) });
    assert.deepEqual(await clipped(dialog), [], `the ${name} dialog at ${w}×${h}`);
  }
  await page.setViewportSize({ width: 1100, height: 760 });
}

describe('the window in Simplified Chinese', () => {
  let app;
  let dataDir;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-zh-'));
    app = await startApp({ dataDir });
    await waitForState(app.page, 'Demo server', 'connected');
  });
  after(async () => {
    await app?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('switches every pane to Chinese from Settings, at once and for the next start', async () => {
    const { page } = app;
    await openSettingsAt(page, 'General');
    await page.getByLabel('Language of the window').selectOption('zh-CN');
    await nav(page).waitFor();
    for (const pane of ['对话', '服务器', '工具', '历史记录', '设置']) {
      await nav(page).getByRole('button', { name: pane }).waitFor();
    }
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    await page.getByRole('heading', { name: '设置', level: 1 }).waitFor();
    await page.getByText('来自服务器的请求').waitFor();
    // Go renders its own sentences in the choice from now on, and keeps it.
    const lang = await page.evaluate(() => window.go.app.SettingsService.Language());
    assert.equal(lang.choice, 'zh-CN');
    assert.equal(lang.language, 'zh-CN');
    await nav(page).getByRole('button', { name: '服务器' }).click();
    await page.getByRole('heading', { name: '服务器', level: 1 }).waitFor();
    await page.locator('.pane-head').getByRole('button', { name: '添加服务器' }).waitFor();
    assert.match(await page.locator('[data-state="connected"]').first().innerText(), /已连接/);
  });

  it('the consent dialog: Chinese around the server text, Go’s hints and errors in Chinese, nothing cut off', async () => {
    const { page } = app;
    await startCall(page, 'register');
    const dialog = page.getByRole('dialog', { name: /请你提供信息$/ });
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('heading').innerText(), 'Demo server 请你提供信息');
    // The server's message and labels stay as the server wrote them.
    assert.match(await dialog.innerText(), /Register for GopherCon Demo 2026\./);
    assert.match(await dialog.innerText(), /自称“gatehouse-demo/);
    // A wrong email gets Go's sentence, in Chinese.
    await dialog.getByLabel(/^Email/).fill('ada-at-example');
    await dialog.getByRole('button', { name: '提交' }).click();
    await dialog.getByText('请输入电子邮件地址，例如 name@example.com。').waitFor();
    await checkLayout(page, dialog, 'consent');
    await dialog.getByRole('button', { name: '拒绝', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('the URL dialog: the look-alike warning in Chinese, the address as written, nothing cut off', async () => {
    const { page } = app;
    await startCall(page, 'lookalike_link');
    const dialog = page.getByRole('dialog', { name: /请你提供信息$/ });
    await dialog.waitFor();
    assert.equal(await dialog.getByTestId('url').innerText(), 'https://p\u0430ypal.com/verify');
    const text = await dialog.innerText();
    assert.match(text, /可能在仿冒 paypal\.com/);
    assert.match(text, /它请你在浏览器中打开此地址/);
    await dialog.getByRole('button', { name: '在浏览器中打开' }).waitFor();
    await checkLayout(page, dialog, 'url');
    await dialog.getByRole('button', { name: '拒绝', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('the choice holds when Gatehouse starts again on the same data', async () => {
    assert.deepEqual(app.problems, []);
    await app.close();
    app = await startApp({ dataDir });
    await nav(app.page).getByRole('button', { name: '服务器' }).waitFor();
    assert.equal(await app.page.evaluate(() => document.documentElement.lang), 'zh-CN');
  });

  it('back to English from Settings', async () => {
    const { page } = app;
    await openSettingsAt(page, '常规');
    await page.getByLabel('界面语言').selectOption('en');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Servers' }).waitFor();
    assert.deepEqual(app.problems, []);
  });
});
