// Server text is never markup: a tool result carrying an <img onerror> is
// shown as literal text, creates no element and runs no script.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { callTool, outputDir, startApp, waitForState } from './helpers.mjs';

const hostile = '<img src=x onerror="window.__pwned=1">';

describe('hostile server text', () => {
  let app;
  before(async () => {
    app = await startApp();
  });
  after(async () => {
    await app?.close();
  });

  it("the demo echo of an <img onerror> is literal text and runs nothing", async () => {
    const { page } = app;
    await waitForState(page, 'Demo server', 'connected');
    const result = await callTool(page, 'Demo server', 'echo', { message: hostile });
    await result.getByText(hostile).waitFor();
    assert.ok((await result.innerText()).includes(hostile));
    assert.equal(await result.locator('img').count(), 0);
    assert.equal(await page.locator('img[src="x"]').count(), 0);
    // Give a stray image a moment to fail loading and fire onerror, had one been created.
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    await page.screenshot({ path: join(outputDir, 'e2e-tools.png'), fullPage: true });
  });

  it('link clicks never navigate the webview', async () => {
    const { page, url } = app;
    await page.evaluate(() => {
      const a = document.createElement('a');
      a.href = 'https://example.com/';
      a.id = 'planted';
      a.textContent = 'planted link';
      document.body.append(a);
    });
    await page.click('#planted');
    await page.waitForTimeout(200);
    assert.equal(page.url(), url);
  });

  it('the page had no errors (CSP violations included)', () => {
    assert.deepEqual(app.problems, []);
  });
});
