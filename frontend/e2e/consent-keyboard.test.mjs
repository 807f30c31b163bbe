// The consent dialog with the keyboard only, against the real Go core and
// server-everything's trigger-elicitation-request (a long form with every
// field type, and a switch without a default). The call is started through
// the window's bindings (the Tools pane is not what is tested here); the
// dialog is answered with keys alone: Tab, typing, Space for switches and
// check boxes, arrows for lists and radio buttons, Enter to submit. What the
// server received is read from the raw result it sends back (E14).
//
// Also: Tab never leaves the dialog, the first field has the focus, the
// buttons stay on screen on a long form at 1100×760 and 800×600 in English
// and Chinese, light and dark (screenshots in test-output/), the first error
// shows its label, an untouched switch is "not answered" and sends nothing,
// and Escape on a changed form asks before throwing the answers away.

import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { everythingServer, outputDir, startApp, waitForState } from './helpers.mjs';

const sizes = [
  [1100, 760],
  [800, 600],
];

/** Starts trigger-elicitation-request on server-everything; the result arrives once the dialog is answered. */
async function startForm(page) {
  await page.evaluate(async () => {
    const list = (await window.go.app.ServersService.List()).servers;
    const id = list.find((s) => s.input.name === 'Everything').id;
    window.__call = window.go.app.ToolsService.Call('', id, 'trigger-elicitation-request', '{}');
  });
  const dialog = page.locator('dialog.consent[open]');
  await dialog.waitFor();
  return dialog;
}

/** What server-everything received: the raw result it echoes back. */
async function received(page) {
  const res = await page.evaluate(() => window.__call);
  const raw = res.content.map((c) => c.text).join('\n');
  const m = /Raw result: ([\s\S]*)$/.exec(raw);
  assert.ok(m, `no raw result in: ${raw}`);
  return JSON.parse(m[1]);
}

/** The label of the focused element, as a person reads it beside the control. */
function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '(nothing)';
    if (!el.closest('dialog')) return `(outside the dialog: ${el.tagName})`;
    const label = el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.textContent;
    return label.replace(/\s+/g, ' ').replace(/\s*\*$/, '').trim();
  });
}

/** Presses key and checks where the focus went. */
async function press(page, key, want) {
  await page.keyboard.press(key);
  assert.equal(await focused(page), want, `after ${key}`);
}

/** How a rectangle of the page lies within another: true when fully inside. */
function inside(r, box) {
  return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.left >= box.left - 1 && r.right <= box.right + 1;
}

/** The footer's buttons and the viewport: every button fully on screen and inside the dialog. */
function buttonsOnScreen(dialog) {
  return dialog.evaluate((d) => {
    const view = { top: 0, left: 0, bottom: innerHeight, right: innerWidth };
    const box = d.getBoundingClientRect();
    const inside = (r, b) => r.top >= b.top - 1 && r.bottom <= b.bottom + 1 && r.left >= b.left - 1 && r.right <= b.right + 1;
    return [...d.querySelectorAll('.footer button')].map((b) => {
      const r = b.getBoundingClientRect();
      return { text: b.textContent.trim(), onScreen: inside(r, view) && inside(r, box) };
    });
  });
}

describe('the consent dialog with the keyboard only', () => {
  let app;
  before(async () => {
    app = await startApp();
    const { page } = app;
    await page.evaluate(
      (input) => window.go.app.ServersService.Add(input),
      { name: 'Everything', enabled: true, transport: 'stdio', command: process.execPath, args: [everythingServer, 'stdio'], env: {}, dir: '', url: '', headers: {} },
    );
    await waitForState(page, 'Everything', 'connected');
  });
  // A test that failed half way leaves no question open for the next one.
  afterEach(async () => {
    await app?.page
      .evaluate(async () => {
        const q = window.go.app.QuestionService;
        for (let s = await q.Snapshot(), n = 0; s.current && n < 20; s = await q.Snapshot(), n++) await q.Cancel(s.current.id);
        await window.__call?.catch(() => {});
      })
      .catch(() => {});
    await app?.page.setViewportSize({ width: 1100, height: 760 });
  });
  after(async () => {
    await app?.close();
  });

  it('answers a whole form with keys alone, and the server receives exactly what was on screen (E14)', async () => {
    const { page } = app;
    const dialog = await startForm(page);
    // It starts on the first field.
    assert.equal(await focused(page), 'String');
    await page.keyboard.type('Ada Lovelace');
    await press(page, 'Tab', 'Boolean');
    await page.keyboard.press('Space'); // the switch: on
    await press(page, 'Tab', 'Clear choice'); // back to "not answered", if the person wants
    await press(page, 'Tab', 'String with default'); // keeps its default
    await press(page, 'Tab', 'String with email format');
    await page.keyboard.type('ada@example.com');
    await press(page, 'Tab', 'String with uri format');
    await page.keyboard.type('https://ada.example/');
    await press(page, 'Tab', 'String with date format');
    await page.keyboard.type('12101815'); // month, day, year in the en-US date control
    // Chromium's date control has stops of its own (its parts, then its calendar button).
    for (let i = 0; i < 4 && (await focused(page)) === 'String with date format'; i++) await page.keyboard.press('Tab');
    assert.equal(await focused(page), 'Integer');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('7');
    await press(page, 'Tab', 'Number in range 1-1000'); // keeps 3.14
    await press(page, 'Tab', 'Untitled Single Select Enum');
    await page.keyboard.press('ArrowDown'); // Monica → Rachel
    await press(page, 'Tab', 'Guitar'); // checked by default
    await press(page, 'Tab', 'Piano');
    await page.keyboard.press('Space');
    for (const next of ['Violin', 'Drums', 'Bass']) await press(page, 'Tab', next);
    await press(page, 'Tab', 'Superman'); // the radio group is one stop, on its choice
    await page.keyboard.press('ArrowDown'); // → Green Lantern
    assert.equal(await focused(page), 'Green Lantern');
    await press(page, 'Tab', 'Clear choice');
    await press(page, 'Tab', 'Tuna');
    for (const next of ['Salmon', 'Trout']) await press(page, 'Tab', next);
    await press(page, 'Tab', 'Cats');
    await page.keyboard.press('ArrowDown'); // → Dogs
    await page.screenshot({ path: join(outputDir, 'e2e-consent-keyboard-filled.png') });
    await page.keyboard.press('Enter'); // submits from the radio button
    await dialog.waitFor({ state: 'detached' });

    const res = await received(page);
    assert.equal(res.action, 'accept');
    assert.deepEqual(res.content, {
      name: 'Ada Lovelace',
      check: true,
      firstLine: 'It was a dark and stormy night.',
      email: 'ada@example.com',
      homepage: 'https://ada.example/',
      birthdate: '1815-12-10',
      integer: 7,
      number: 3.14,
      untitledSingleSelectEnum: 'Rachel',
      untitledMultipleSelectEnum: ['Guitar', 'Piano'],
      titledSingleSelectEnum: 'hero-2',
      titledMultipleSelectEnum: ['fish-1'],
      legacyTitledEnum: 'pet-2',
    });
    assert.deepEqual(app.problems, []);
  });

  it('keeps Tab and Shift+Tab inside the dialog, starting on the first field', async () => {
    const { page } = app;
    const dialog = await startForm(page);
    assert.equal(await focused(page), 'String');
    // Backwards from the first field: the last button, not the browser.
    await press(page, 'Shift+Tab', 'Submit');
    await press(page, 'Tab', 'String');
    // Forwards through every stop and round again, never outside.
    const seen = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      seen.push(await focused(page));
    }
    assert.deepEqual(seen.filter((s) => s.startsWith('(')), [], 'the focus left the dialog');
    assert.ok(seen.filter((s) => s === 'String').length >= 1, `Tab never came back to the first field: ${seen.join(' → ')}`);
    await dialog.getByRole('button', { name: 'Decline', exact: true }).click();
    assert.equal((await received(page)).action, 'decline');
  });

  it('a switch nobody touched shows "Not answered", reads as mixed, and is not sent', async () => {
    const { page } = app;
    const dialog = await startForm(page);
    const sw = dialog.getByRole('switch', { name: 'Boolean' });
    assert.equal(await sw.evaluate((el) => el.indeterminate), true);
    await dialog.getByText('Not answered', { exact: true }).waitFor();
    // What a screen reader gets from Chromium's accessibility tree.
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const node = nodes.find((n) => n.name?.value === 'Boolean' && ['switch', 'checkbox'].includes(n.role?.value));
    const checked = node?.properties?.find((p) => p.name === 'checked')?.value.value;
    assert.equal(checked, 'mixed', `the switch reads as ${JSON.stringify(node?.properties)}`);
    await cdp.detach();
    await page.screenshot({ path: join(outputDir, 'e2e-consent-switch-unanswered.png') });

    await page.keyboard.type('Ada');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const res = await received(page);
    assert.equal(res.action, 'accept');
    assert.equal(res.content.name, 'Ada');
    assert.ok(!('check' in res.content), `an untouched switch was sent: ${JSON.stringify(res.content)}`);
  });

  it('Escape on a changed form asks first and keeps the answers; on an untouched one it cancels', async () => {
    const { page } = app;
    let dialog = await startForm(page);
    await page.keyboard.type('Ada');
    await page.keyboard.press('Escape');
    assert.equal(await focused(page), 'Keep answering');
    await page.screenshot({ path: join(outputDir, 'e2e-consent-keyboard-discard.png') });
    // Tab stays on the question's two buttons.
    await press(page, 'Tab', 'Throw away and cancel');
    await press(page, 'Tab', 'Keep answering');
    await page.keyboard.press('Enter');
    assert.equal(await focused(page), 'String');
    assert.equal(await dialog.getByLabel(/^String/).first().inputValue(), 'Ada');
    // Ctrl+W asks the same; throwing away is the Cancel answer.
    await page.keyboard.press('Control+w');
    await press(page, 'Tab', 'Throw away and cancel');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await received(page)).action, 'cancel');

    dialog = await startForm(page);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await received(page)).action, 'cancel');
  });

  it('the first error scrolls into view with its label', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 800, height: 600 });
    const dialog = await startForm(page);
    // From the last field, the first (required, left empty) is far above.
    await dialog.getByLabel('Reptiles').focus();
    await dialog.evaluate((d) => (d.querySelector('.body').scrollTop = 1e6));
    await page.keyboard.press('Enter');
    await dialog.getByText('This field is required.').waitFor();
    assert.equal(await focused(page), 'String');
    const [label, body] = await dialog.evaluate((d) => [
      d.querySelector('.field[data-invalid="true"] label').getBoundingClientRect().toJSON(),
      d.querySelector('.body').getBoundingClientRect().toJSON(),
    ]);
    assert.ok(inside(label, body), `the label is out of view: ${JSON.stringify(label)} in ${JSON.stringify(body)}`);
    await page.screenshot({ path: join(outputDir, 'e2e-consent-first-error-800x600.png') });
  });

  for (const [lang, theme] of [
    ['en', 'light'],
    ['en', 'dark'],
    ['zh-CN', 'light'],
    ['zh-CN', 'dark'],
  ]) {
    it(`keeps Submit, Decline and Cancel on screen on a long form (${lang}, ${theme})`, async () => {
      const { page } = app;
      await page.evaluate(
        async ([l, th]) => {
          await window.go.app.SettingsService.SetLanguage(l);
          await window.go.app.ThemeService.Set(th);
        },
        [lang, theme],
      );
      await page.reload();
      await page.waitForFunction(() => window.go?.app?.ToolsService);
      const dialog = await startForm(page);
      for (const [w, h] of sizes) {
        await page.setViewportSize({ width: w, height: h });
        await page.waitForTimeout(100);
        const buttons = await buttonsOnScreen(dialog);
        assert.equal(buttons.length, 3, JSON.stringify(buttons));
        assert.deepEqual(
          buttons.filter((b) => !b.onScreen),
          [],
          `buttons below the fold at ${w}×${h}`,
        );
        await page.screenshot({ path: join(outputDir, `e2e-consent-long-${lang}-${theme}-${w}x${h}.png`) });
      }
      await dialog.locator('.footer button.danger').click(); // Decline, in either language
      await dialog.waitFor({ state: 'detached' });
      assert.equal((await received(page)).action, 'decline');
    });
  }

  it('back to English and the system theme', async () => {
    const { page } = app;
    await page.evaluate(async () => {
      await window.go.app.SettingsService.SetLanguage('en');
      await window.go.app.ThemeService.Set('system');
    });
    assert.deepEqual(app.problems, []);
  });
});
