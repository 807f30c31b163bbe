// The consent dialog against the real Go core and real servers: the demo
// server Gatehouse ships (go-sdk) and a TypeScript SDK peer that sends a
// hostile request. What a person would check: who is asking, that nothing
// is sent before Submit, that errors show beside the field, and that the
// server gets exactly the answer chosen (E12–E17, E26–E29).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { openTool, outputDir, repoDir, startApp, waitForState, openSettingsAt } from './helpers.mjs';

const consent = (page) => page.getByRole('dialog', { name: /is asking for your input$/ });
const result = (page) => page.getByRole('region', { name: /^(Result|Error result)$/ });
const fieldIn = (dialog, label) => dialog.getByLabel(new RegExp(`^${label}(\\s|\\*|$)`));

/** Starts a tool call from the tools pane without waiting for its result (a dialog comes first). */
async function startCall(page, tool) {
  await openTool(page, 'Demo server', tool);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
}

async function resultText(page) {
  await result(page).waitFor({ timeout: 30_000 });
  return result(page).innerText();
}

describe('the consent dialog', () => {
  let app;
  before(async () => {
    app = await startApp();
    await waitForState(app.page, 'Demo server', 'connected');
  });
  after(async () => {
    await app?.close();
  });

  it('names the server, refuses an invalid email inline, and sends the fixed answer (E14, E15, E27)', async () => {
    const { page } = app;
    await startCall(page, 'register');
    const dialog = consent(page);
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('heading').innerText(), 'Demo server is asking for your input');
    assert.match(await dialog.innerText(), /calls itself “gatehouse-demo/);
    assert.match(await dialog.innerText(), /Register for GopherCon Demo 2026\.\nWe need a few details/);
    // Defaults are filled in (E12): guests 0, track Go, workshop "Writing MCP servers".
    assert.equal(await fieldIn(dialog, 'Guests').inputValue(), '0');
    assert.ok(await dialog.getByLabel('Go', { exact: true }).isChecked());
    assert.ok(await dialog.getByLabel('Writing MCP servers').isChecked());

    await fieldIn(dialog, 'Full name').fill('Ada Lovelace');
    await fieldIn(dialog, 'Email').fill('ada-at-example');
    await fieldIn(dialog, 'Arrival date').fill('2026-12-01');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByText('Enter an email address, like name@example.com.').waitFor();
    assert.equal(await fieldIn(dialog, 'Email').getAttribute('aria-invalid'), 'true');
    // Nothing was sent: the call still waits and the request is still open in Go.
    assert.equal(await result(page).count(), 0);
    const open = await page.evaluate(() => window.go.app.QuestionService.Snapshot().then((s) => s.current));
    assert.equal(open?.server?.name, 'Demo server');

    await fieldIn(dialog, 'Email').fill('ada@example.com');
    await dialog.getByLabel('Operations').check();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'detached' });
    const text = await resultText(page);
    const sent = JSON.parse(text.slice(text.indexOf('accept ') + 7).split('\n')[0]);
    assert.deepEqual(sent, {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      arrival: '2026-12-01',
      guests: 0,
      newsletter: false,
      track: 'ops',
      workshops: ['mcp'],
    });
  });

  it('a pre-filled field the person clears reaches the server absent, not with its default (E14)', async () => {
    const { page } = app;
    await startCall(page, 'register');
    const dialog = consent(page);
    await dialog.waitFor();
    await fieldIn(dialog, 'Full name').fill('Grace Hopper');
    await fieldIn(dialog, 'Email').fill('grace@example.com');
    await fieldIn(dialog, 'Arrival date').fill('2026-12-02');
    assert.equal(await fieldIn(dialog, 'Guests').inputValue(), '0');
    await fieldIn(dialog, 'Guests').fill('');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'detached' });
    const text = await resultText(page);
    const sent = JSON.parse(text.slice(text.indexOf('accept ') + 7).split('\n')[0]);
    assert.equal('guests' in sent, false, `the server received guests: ${text}`);
    assert.deepEqual(sent, {
      name: 'Grace Hopper',
      email: 'grace@example.com',
      arrival: '2026-12-02',
      newsletter: false,
      track: 'go',
      workshops: ['mcp'],
    });
  });

  it('Decline answers decline, and Escape answers cancel (E26)', async () => {
    const { page } = app;
    await startCall(page, 'ask_city');
    await consent(page).getByRole('button', { name: 'Decline' }).click();
    assert.match(await resultText(page), /^decline$/m);

    await startCall(page, 'ask_city');
    await consent(page).waitFor();
    await page.keyboard.press('Escape');
    await consent(page).waitFor({ state: 'detached' });
    assert.match(await resultText(page), /^cancel$/m);
  });

  it('a reloaded window shows the request still waiting; Enter submits', async () => {
    const { page } = app;
    await startCall(page, 'ask_city');
    await consent(page).waitFor();
    await page.reload();
    const dialog = consent(page);
    await dialog.waitFor();
    await fieldIn(dialog, 'City').fill('Lisbon');
    await fieldIn(dialog, 'City').press('Enter');
    await dialog.waitFor({ state: 'detached' });
    // The page that started the call is gone; Go's history has the answer.
    const h = await page.evaluate(async () => (await window.go.app.QuestionService.History('', 'accepted', 0)).entries);
    assert.ok(h.some((e) => e.message === 'Which city should I look up?'));
  });

  it('warns about a password field (E17)', async () => {
    const { page } = app;
    await startCall(page, 'connect_bank');
    const dialog = consent(page);
    // The warning names the field that set it off (E17); the user name does not.
    await dialog.getByText('This field seems to ask for a password, key or other secret: “Bank password”.').waitFor();
    assert.equal(await fieldIn(dialog, 'Bank password').getAttribute('type'), 'password');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    assert.match(await resultText(page), /^decline$/m);
  });

  it('two questions in a row come one after the other', async () => {
    const { page } = app;
    await startCall(page, 'plan_trip');
    const dialog = consent(page);
    await fieldIn(dialog, 'City').fill('Porto');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByText('Book a trip to Porto?').waitFor();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    const text = await resultText(page);
    assert.match(text, /first: accept \{"city":"Porto"\}/);
    assert.match(text, /second: accept \{"confirm":true\}/);
  });

  it('history lists the outcomes, filters them, and clears', async () => {
    const { page } = app;
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'History' }).click();
    const table = page.locator('table.history');
    await table.waitFor();
    // The questions answered above: register, the city after the reload, and the two in a row.
    await page.waitForFunction(() => document.querySelectorAll('table.history tr[data-outcome="accepted"]').length >= 4, null, { timeout: 5000 });
    await page.getByLabel('Outcome').selectOption('declined');
    await page.waitForFunction(() => document.querySelectorAll('tr[data-outcome]').length > 0 &&
      [...document.querySelectorAll('tr[data-outcome]')].every((r) => r.dataset.outcome === 'declined'));
    assert.equal(await table.locator('tr[data-outcome="declined"]').count(), 2);
    // Answer values are not kept unless "remember my answers" is on.
    assert.ok(!(await table.innerText()).includes('Ada Lovelace'));
    await page.screenshot({ path: join(outputDir, 'e2e-history.png') });

    await page.getByRole('button', { name: 'Clear history' }).click();
    await page.getByRole('dialog', { name: 'Clear the history?' }).getByRole('button', { name: 'Clear history' }).click();
    await page.getByLabel('Outcome').selectOption('');
    await page.getByText('No server has asked you anything and no tool has run yet.').waitFor();
  });

  it('settings for requests are saved in the store', async () => {
    const { page } = app;
    await openSettingsAt(page, 'Requests from servers');
    // Settings save as you go: a number when it is committed (Enter), a switch when it is switched.
    const answerTime = page.getByLabel('Time to answer a request (minutes)');
    await answerTime.fill('0');
    await answerTime.press('Enter');
    await page.getByText('The answer time must be between 1 minute and 24 hours.').waitFor();
    await answerTime.fill('3');
    await answerTime.press('Enter');
    await page.locator('[data-saved-for="elicitationTimeoutMinutes"]').getByText('Saved.').waitFor();
    await page.getByRole('switch', { name: 'Remember my answers in the history' }).check();
    await page.locator('[data-saved-for="rememberAnswers"]').getByText('Saved.').waitFor();
    const saved = await page.evaluate(() => window.go.app.SettingsService.Get());
    assert.equal(saved.elicitationTimeoutMinutes, 3);
    assert.equal(saved.rememberAnswers, true);
  });

  it('the page had no errors', () => {
    assert.deepEqual(app.problems, []);
  });
});

describe('a flooding server', () => {
  let app;
  before(async () => {
    app = await startApp();
    await waitForState(app.page, 'Demo server', 'connected');
  });
  after(async () => {
    await app?.close();
  });

  it('shows the queue, and a waiting request can be declined unseen (E28)', async () => {
    const { page } = app;
    await startCall(page, 'ask_city');
    const dialog = consent(page);
    await dialog.waitFor();
    // Two more calls through the same Go API the tools pane uses, while the dialog is open.
    await page.evaluate(async () => {
      const s = (await window.go.app.ServersService.List()).servers.find((x) => x.input.name === 'Demo server');
      window.__calls = ['second', 'third'].map((id) => window.go.app.ToolsService.Call(id, s.id, 'ask_city', '{}'));
    });
    const queue = dialog.getByRole('button', { name: '2 more waiting from Demo server' });
    await queue.waitFor();
    await page.screenshot({ path: join(outputDir, 'e2e-consent-queue.png') });
    await queue.click();
    await dialog.getByRole('listitem').first().getByRole('button', { name: 'Decline' }).click();
    await dialog.getByRole('button', { name: '1 more waiting from Demo server' }).waitFor();

    await fieldIn(dialog, 'City').fill('Oslo');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    assert.match(await resultText(page), /accept \{"city":"Oslo"\}/);
    // The last one comes next, in a fresh dialog.
    const next = consent(page);
    await next.waitFor();
    assert.equal(await fieldIn(next, 'City').inputValue(), '');
    await next.getByRole('button', { name: 'Cancel' }).click();
    const texts = await page.evaluate(async () =>
      (await Promise.all(window.__calls)).map((r) => r.content.map((c) => c.text).join('')),
    );
    // The two calls raced to the queue; one was declined unseen, the other cancelled.
    assert.deepEqual(texts.sort(), ['cancel', 'decline']);
  });

  it('a flood is refused, shows one notice, and Mute silences the server (E29)', async () => {
    const { page } = app;
    await page.evaluate(async () => {
      const s = (await window.go.app.ServersService.List()).servers.find((x) => x.input.name === 'Demo server');
      window.__flood = window.go.app.ToolsService.Call('flood', s.id, 'flood', '{"count": 30}').catch((e) => String(e));
    });
    // go-sdk answers a batch of input requests all or nothing: the first
    // refusal ends the call, and the requests already admitted close at once.
    const flood = await page.evaluate(() => window.__flood);
    assert.match(JSON.stringify(flood), /too many elicitation requests from this server/);
    await consent(page).waitFor({ state: 'detached' });
    const notice = page.getByRole('status').filter({ hasText: 'Demo server is sending too many requests.' });
    await notice.waitFor();
    assert.equal(await notice.count(), 1);
    await page.screenshot({ path: join(outputDir, 'e2e-flood-notice.png') });
    await notice.getByRole('button', { name: 'Mute Demo server for an hour' }).click();
    await notice.waitFor({ state: 'detached' });

    const after = await page.evaluate(async () => {
      const s = (await window.go.app.ServersService.List()).servers.find((x) => x.input.name === 'Demo server');
      const policy = (await window.go.app.PoliciesService.Server(s.id)).requests;
      // Muted: the next question is cancelled without a dialog.
      const r = await window.go.app.ToolsService.Call('muted', s.id, 'ask_city', '{}');
      const history = (await window.go.app.QuestionService.History('', '', 0)).entries.filter((e) => e.mode !== 'tool-run');
      return { policy, text: r.content.map((c) => c.text).join(''), history };
    });
    assert.equal(after.policy, 'mute');
    assert.equal(after.text, 'cancel');
    assert.equal(after.history[0].outcome, 'cancelled');
    assert.equal(after.history[0].detail?.key, 'mcp.history.muted', 'the reason is kept as a message, said in the window\'s language');
    // How many of the 30 reached Gatehouse before go-sdk gave up on the batch varies; at least one was
    // refused, and however many were, History shows them as one row that counts the rest.
    const refused = after.history.filter((h) => h.outcome === 'rate_limited');
    assert.equal(refused.length, 1, `one row for the flood's refusals: ${JSON.stringify(refused)}`);
    assert.ok(refused[0].repeats >= 0 && (refused[0].repeats === 0 || refused[0].lastTime !== ''));
    // The History pane shows that one row with its count.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'History' }).click();
    const row = page.locator('table.history tr[data-outcome="rate_limited"]');
    await row.first().waitFor();
    assert.equal(await row.count(), 1);
    if (refused[0].repeats > 0) assert.match(await row.innerText(), /Refused the same way (once more|\d+ more times) after this/);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outputDir, 'e2e-history-flood.png') });
  });

  it('the page had no errors', () => {
    assert.deepEqual(app.problems, []);
  });
});

describe('a hostile request (E16)', () => {
  let app;
  let beacon;
  const hits = [];
  before(async () => {
    beacon = createServer((req, res) => {
      hits.push(req.url);
      res.end();
    });
    await new Promise((r) => beacon.listen(0, '127.0.0.1', r));
    app = await startApp();
  });
  after(async () => {
    await app?.close();
    beacon?.close();
  });

  it('shows markup, markdown and bidi tricks as text and fetches nothing', async () => {
    const { page, url } = app;
    const base = `http://127.0.0.1:${beacon.address().port}`;
    const outside = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(url) && !r.url().startsWith('ws://')) outside.push(r.url());
    });
    await page.evaluate(
      ([node, script, base]) =>
        window.go.app.ServersService.Add({
          name: 'Hostile peer',
          enabled: true,
          transport: 'stdio',
          command: node,
          args: [script, 'hostile', base],
          env: {},
          dir: '',
          url: '',
          headers: {},
        }),
      [process.execPath, join(repoDir, 'testdata/peers/ask-on-connect.mjs'), base],
    );
    const dialog = consent(page);
    await dialog.waitFor({ timeout: 30_000 });
    assert.equal(await dialog.getByRole('heading').innerText(), 'Hostile peer is asking for your input');
    const text = await dialog.innerText();
    assert.ok(text.includes(`<img src=${base}/img onerror=alert(1)>`), text);
    assert.ok(text.includes(`![x](${base}/markdown.png)`), text);
    assert.ok(text.includes('U+202E'), 'the right-to-left override is shown as a code');
    assert.ok(text.includes('U+200B'), 'the zero-width space is shown as a code');
    assert.ok(text.includes('API token <b>now</b>'), 'the field title is text');
    assert.equal(await dialog.locator('img, a[href], b').count(), 0);
    await dialog.getByText('This field seems to ask for a password, key or other secret: “API token <b>now</b>”.').waitFor();
    await page.screenshot({ path: join(outputDir, 'e2e-consent-hostile.png') });
    await page.waitForTimeout(500); // time for a stray image or prefetch to be requested, had one been made
    assert.deepEqual(hits, []);
    assert.deepEqual(outside, []);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    const h = await page.evaluate(async () => (await window.go.app.QuestionService.History('', '', 0)).entries.filter((e) => e.mode !== 'tool-run'));
    assert.equal(h[0].outcome, 'cancelled');
    assert.equal(h[0].serverName, 'Hostile peer');
  });

  it('the page had no errors', () => {
    assert.deepEqual(app.problems, []);
  });
});
