// The History pane against the real Go core and the demo server, at 800×600:
// tool calls from the Tools pane are in the history; a URL request shows the
// address it asked for; a form shows its field titles; a row opens its
// details; the table fits without scrolling sideways; and with 10,000
// entries (10,000 real echo calls) the pane opens quickly. The time it takes
// is printed for the closing note, not asserted: the machines are shared.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { outputDir, startApp, waitForState } from './helpers.mjs';

const nav = (page, name) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: new RegExp(`^${name}\\b`) });
const consent = (page) => page.getByRole('dialog', { name: /is asking for your input$/ });
const rows = (page) => page.locator('table.history > tbody > tr:not(.details)');

/** Calls a demo tool through the live Go binding, as the Tools pane does; returns the call's promise in the page. */
function startCall(page, demo, tool, args = '') {
  return page.evaluate(([id, t, a]) => {
    window.__calls = window.__calls ?? [];
    window.__calls.push(window.go.app.ToolsService.Call(`e2e-${t}`, id, t, a).catch((e) => String(e)));
  }, [demo, tool, args]);
}

/** Whether the page scrolls sideways, and the table's right edge against the window's. */
function sideways(page) {
  return page.evaluate(() => {
    const doc = document.scrollingElement;
    const table = document.querySelector('table.history');
    return { scrolls: doc.scrollWidth > doc.clientWidth, tableRight: table?.getBoundingClientRect().right ?? 0, width: window.innerWidth };
  });
}

describe('History at 800×600', () => {
  let app;
  let demo;
  before(async () => {
    app = await startApp();
    await app.page.setViewportSize({ width: 800, height: 600 });
    await waitForState(app.page, 'Demo server', 'connected');
    demo = await app.page.evaluate(async () => (await window.go.app.ServersService.List()).servers.find((s) => s.input.name === 'Demo server').id);
  });
  after(async () => {
    await app?.close();
  });

  it('a form, a URL request and a tool call are in the history with titles, the address and a duration', async () => {
    const { page } = app;
    await startCall(page, demo, 'ask_city');
    await consent(page).waitFor();
    await consent(page).getByRole('textbox', { name: /City/ }).fill('Oslo');
    await consent(page).getByRole('button', { name: 'Submit' }).click();
    await consent(page).waitFor({ state: 'detached' });
    await startCall(page, demo, 'connect_account');
    await consent(page).waitFor();
    await consent(page).getByRole('button', { name: 'Decline' }).click();
    await consent(page).waitFor({ state: 'detached' });
    await page.evaluate(() => Promise.all(window.__calls));

    await nav(page, 'History').click();
    // Newest first: connect_account's run, its URL request, ask_city's run, its form.
    await rows(page).nth(3).waitFor();
    const texts = await rows(page).allInnerTexts();
    assert.match(texts[0], /Tool call: connect_account\s+from the Tools pane/);
    assert.match(texts[1], /Declined/);
    assert.match(texts[1], /http:\/\/127\.0\.0\.1:\d+\/connect\//, 'the row shows the address the request asked for');
    assert.match(texts[2], /Tool call: ask_city/);
    assert.match(texts[3], /Fields: City/, 'the form row shows the field title, not the key alone');

    // The tool run's details: what, the server, the duration, and why no arguments.
    await rows(page).nth(2).getByRole('button', { name: 'Tool call: ask_city' }).click();
    const details = page.locator('tr.details');
    await details.waitFor();
    const text = await details.innerText();
    assert.match(text, /Tool call, from the Tools pane/);
    assert.match(text, /Duration\s+\d/);
    assert.match(text, /Arguments and results are not kept/);
    // The form's details pair the title with the key.
    await rows(page).nth(3).getByRole('button').click();
    assert.match(await page.locator('tr.details').innerText(), /City \(city\)/);
    const { scrolls, tableRight } = await sideways(page);
    assert.equal(scrolls, false, 'the page does not scroll sideways');
    assert.ok(tableRight <= 800, `the table ends inside the window (at ${tableRight} px)`);
    await page.screenshot({ path: join(outputDir, 'history-800x600.png') });
  });

  it('with 10,000 entries the pane opens on its newest page at once, and fits the window', async () => {
    const { page } = app;
    await nav(page, 'Tools').click();
    const started = Date.now();
    const made = await page.evaluate(async (id) => {
      let n = 0;
      for (let batch = 0; batch < 100; batch++) {
        const calls = [];
        for (let i = 0; i < 100; i++) calls.push(window.go.app.ToolsService.Call('', id, 'echo', JSON.stringify({ message: `m${batch * 100 + i}` })));
        n += (await Promise.all(calls)).length;
      }
      return n;
    }, demo);
    assert.equal(made, 10_000);
    const seeding = Date.now() - started;

    const open = Date.now();
    await nav(page, 'History').click();
    await rows(page).nth(99).waitFor();
    const opened = Date.now() - open;
    assert.equal(await rows(page).count(), 100, 'a page of 100 entries');
    assert.match(await rows(page).first().innerText(), /Tool call: echo/);
    const older = page.getByRole('button', { name: 'Older' });
    const step = Date.now();
    await older.click();
    await page.getByText('Page 2').waitFor();
    const stepped = Date.now() - step;
    const { scrolls, tableRight } = await sideways(page);
    assert.equal(scrolls, false, 'the page does not scroll sideways');
    assert.ok(tableRight <= 800);
    console.log(`history e2e: 10,000 calls made in ${seeding} ms; the pane showed the newest 100 of 10,000+ in ${opened} ms; Older took ${stepped} ms`);
  });

  it('the page had no errors', () => {
    assert.deepEqual(app.problems, []);
  });
});
