// A long conversation (issue 26): 1,000 messages seeded in the data file
// (testdata/seedchat), against the real core and the stand-in model. Only
// the rows on screen (and a margin) are in the page; the view opens on the
// newest message, with only the newest page of messages read; scrolled to
// the top, the older pages are read without moving what the person reads;
// scrolled up it stays put while a new answer arrives and
// offers "Jump to the newest"; Ctrl+F finds a word in a message far from
// the rows drawn, scrolls to it and highlights it, Enter and Shift+Enter
// step through the matches, Escape closes the box. Screenshots:
// chat-long-*.png.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outputDir, repoDir, startApp } from './helpers.mjs';
import { lastMessage, messageText, standInModelName, startStandInModel } from './standin-model.mjs';

const MESSAGES = 1000;

/** The transcript's scrolling box and its drawn rows. */
const scroller = (page) => page.locator('section.conversation .messages');
const rows = (page) => page.locator('section.conversation .messages .row');

/** Where the scroller is: its scrollTop, how far from the bottom, and how many rows are in the page. */
function where(page) {
  return scroller(page).evaluate((el) => ({
    top: el.scrollTop,
    fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight,
    height: el.scrollHeight,
    rows: el.querySelectorAll('.row').length,
  }));
}

/** The first row whose bottom is inside the view: its text's start and its top relative to the view. */
function firstVisible(page) {
  return scroller(page).evaluate((el) => {
    const box = el.getBoundingClientRect();
    for (const r of el.querySelectorAll('.row')) {
      const b = r.getBoundingClientRect();
      if (b.bottom > box.top + 1) return { text: r.textContent.trim().slice(0, 40), top: Math.round(b.top - box.top) };
    }
    return null;
  });
}

/** Whether text is drawn inside the scroller's visible box. */
function textInView(page, text) {
  return scroller(page).evaluate((el, want) => {
    const box = el.getBoundingClientRect();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const i = n.data.indexOf(want);
      if (i < 0) continue;
      const range = document.createRange();
      range.setStart(n, i);
      range.setEnd(n, i + want.length);
      const r = range.getBoundingClientRect();
      if (r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1) return true;
    }
    return false;
  }, text);
}

async function until(what, check, timeout = 10_000) {
  const start = Date.now();
  let last;
  while (Date.now() - start < timeout) {
    last = await check();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`${what} (last seen: ${JSON.stringify(last)})`);
}

describe('a conversation of 1,000 messages', () => {
  let app;
  let model;
  let dataDir;

  before(async () => {
    model = await startStandInModel();
    dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-long-'));
    execFileSync('go', ['run', './testdata/seedchat', '-data', dataDir, '-provider', model.baseUrl, '-model', standInModelName, '-messages', String(MESSAGES)], {
      cwd: repoDir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    app = await startApp({ dataDir });
    const { page } = app;
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Chat' }).click();
    await page.locator('aside.list').getByText('Long', { exact: true }).click();
  });
  after(async () => {
    await app?.close();
    await model?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('opens on the newest message with only the rows near the view in the page', async () => {
    const { page } = app;
    await until('the newest answer is on screen', () => textInView(page, 'Answer 499.'));
    const w = await where(page);
    assert.ok(w.fromBottom < 24, `the view is at the bottom (${w.fromBottom}px above it)`);
    assert.ok(w.rows > 3 && w.rows < 40, `only the rows near the view are drawn: ${w.rows} of ${MESSAGES}`);
    assert.ok(w.height < 100 * 760, `only the newest page of messages was read (${w.height}px)`);
    assert.equal(await page.getByRole('button', { name: 'Jump to the newest' }).count(), 0, 'no jump button at the bottom');
    await page.screenshot({ path: join(outputDir, 'chat-long-open.png') });
  });

  it('scrolled to the top, the older messages are read page by page, and what the person reads stays put', async () => {
    const { page } = app;
    for (let pages = 0; !(await textInView(page, 'Question 0')); pages++) {
      assert.ok(pages < 20, 'the oldest question is reached');
      // As a person dragging the scroll bar to the top (the pointer held on the transcript): what is at the top of the view in each frame for a second.
      const frames = await scroller(page).evaluate(async (el) => {
        el.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
        el.scrollTop = 0;
        const out = [];
        for (let i = 0; i < 60; i++) {
          await new Promise((r) => requestAnimationFrame(r));
          const box = el.getBoundingClientRect();
          const r = [...el.querySelectorAll('.row')].find((row) => row.getBoundingClientRect().bottom > box.top + 1);
          out.push({ text: r.textContent.trim().slice(0, 40), top: Math.round(r.getBoundingClientRect().top - box.top), height: el.scrollHeight });
        }
        window.dispatchEvent(new PointerEvent('pointerup'));
        return out;
      });
      // From the first frame that drew the rows at the top on, the same message stays at the same place, while the page before is read above it.
      const shown = frames.findIndex((f) => f.top <= 50);
      assert.ok(shown >= 0, `page ${pages + 1}: the rows at the top were drawn (${JSON.stringify(frames.slice(0, 3))})`);
      if (frames[shown].text.startsWith('Question 0')) break;
      for (const f of frames.slice(shown)) {
        assert.equal(f.text, frames[shown].text, `page ${pages + 1}: the same message at the top`);
        assert.ok(Math.abs(f.top - frames[shown].top) <= 2, `page ${pages + 1}: it did not move (${frames[shown].top}px, then ${f.top}px)`);
      }
      assert.ok(frames.at(-1).height > frames[shown].height + 1000, `page ${pages + 1}: older messages were read above`);
    }
    assert.equal(await page.getByRole('button', { name: 'Jump to the newest' }).count(), 1);
    await page.screenshot({ path: join(outputDir, 'chat-long-top.png') });
  });

  it('scrolled up, it stays put while rows above are measured and a new answer arrives; Jump to the newest goes to it', async () => {
    const { page } = app;
    // A question whose answer comes after a while, so that the person scrolls up meanwhile.
    let release;
    const held = new Promise((r) => (release = r));
    model.reply = async (req) => {
      await held;
      return { text: `The newest answer, to: ${messageText(lastMessage(req))}` };
    };
    const box = page.getByLabel('Message', { exact: true });
    await box.fill('One more question');
    await box.press('Enter');
    await until('the question is shown at the bottom', () => textInView(page, 'One more question'));

    const sbox = await scroller(page).boundingBox();
    await page.mouse.move(sbox.x + sbox.width / 2, sbox.y + sbox.height / 2);
    for (let i = 0; i < 30; i++) await page.mouse.wheel(0, -400);
    await page.getByRole('button', { name: 'Jump to the newest' }).waitFor();
    await new Promise((r) => setTimeout(r, 500)); // rows drawn above were measured
    const readBefore = await firstVisible(page);
    const w = await where(page);
    assert.ok(w.fromBottom > 5000, `scrolled far up (${w.fromBottom}px above the bottom)`);
    assert.ok(w.rows < 40, `still only the rows near the view: ${w.rows}`);

    release();
    await page.locator('[aria-busy="true"]').waitFor({ state: 'detached', timeout: 30_000 });
    await new Promise((r) => setTimeout(r, 500));
    const readAfter = await firstVisible(page);
    // Within a pixel: the scroll position is whole pixels, the rows' tops are not.
    assert.equal(readAfter.text, readBefore.text, 'what the person reads did not move when the answer arrived below');
    assert.ok(Math.abs(readAfter.top - readBefore.top) <= 1, `it did not move (${readBefore.top}px, then ${readAfter.top}px)`);
    assert.equal(await textInView(page, 'The newest answer'), false);
    await page.screenshot({ path: join(outputDir, 'chat-long-scrolled.png') });

    await page.getByRole('button', { name: 'Jump to the newest' }).click();
    await until('the new answer is on screen', () => textInView(page, 'The newest answer, to: One more question'));
    await until('at the bottom', async () => (await where(page)).fromBottom < 24);
    await page.getByRole('button', { name: 'Jump to the newest' }).waitFor({ state: 'detached' });
  });

  it('Ctrl+F finds a word in messages not drawn, scrolls to each and highlights it; Escape closes', async () => {
    const { page } = app;
    await page.getByLabel('Message', { exact: true }).focus();
    await page.keyboard.press('Control+f');
    const find = page.getByRole('searchbox', { name: 'Find in the conversation' });
    await find.waitFor();
    assert.equal(await find.evaluate((el) => el === document.activeElement), true, 'the find box has the focus');
    assert.equal(await textInView(page, 'zanzibar7.'), false);
    await find.fill('zanzibar');
    const count = page.locator('.find .count');
    await until('1 of 10', async () => (await count.innerText()) === '1 of 10');
    await until('the first match (answer 7, far above) is on screen', () => textInView(page, 'zanzibar7.'));
    const highlighted = () =>
      page.evaluate(() => {
        const h = CSS.highlights.get('chat-find-current');
        return h ? [...h].map((r) => r.toString()) : [];
      });
    assert.deepEqual(await highlighted(), ['zanzibar']);
    assert.ok(await page.evaluate(() => CSS.highlights.get('chat-find')?.size >= 1));
    assert.ok((await where(page)).rows < 40, 'finding did not draw every row');
    await page.screenshot({ path: join(outputDir, 'chat-long-find.png') });

    await find.press('Enter');
    await until('2 of 10', async () => (await count.innerText()) === '2 of 10');
    await until('the second match is on screen', () => textInView(page, 'zanzibar57.'));
    await find.press('Shift+Enter');
    await find.press('Shift+Enter');
    await until('10 of 10 (wrapped)', async () => (await count.innerText()) === '10 of 10');
    await until('the last match is on screen', () => textInView(page, 'zanzibar457.'));

    await find.fill('no such words anywhere');
    await until('no match', async () => (await count.innerText()) === 'No match');

    await find.press('Escape');
    await find.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => CSS.highlights.get('chat-find-current')), undefined, 'the highlight is gone');
    assert.deepEqual(app.problems, []);
  });
});
