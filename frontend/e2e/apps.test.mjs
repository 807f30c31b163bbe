// MCP Apps (issue 24) in the real WebKit window of the dev binary, against
// the official example servers from npm (testdata/peers, pinned) and a
// hostile app of our own (testdata/peers/hostile-app.mjs).
//
// Apps run on the gatehouse-app: scheme that only the window's WebKit view
// serves, so these tests drive that window (webkit-window.mjs: WebKitGTK's
// remote inspector), not Chromium: they click the window's own page as a
// person does, and read inside an app's frame through the frame's own
// execution context (what the app drew: a known element of each app).
// The screenshots are of the window as WebKit drew it, the frames included.
//
// Everything runs offline: the PDF is a local file given to server-pdf on
// its command line; server-map's globe comes from cesium.com, which it
// declares but which cannot be reached here, and the test checks that it
// says so in its frame instead of breaking the window.
//
// What a person would check: each app shows up beside its tool's result and
// works (its own tool calls asked first, or allowed by the server's
// permission); an app-only tool is marked and not offered to the model; the
// hostile app reached only the address it declared, added no server, ran
// no tool it may not or the person denied, opened nothing, and the window
// outlived its flood, which closed the app with a sentence.

import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeBrowser, repoDir } from './helpers.mjs';
import { addStandInProvider, lastMessage, messageText, offeredTool, offersTools, startStandInModel } from './standin-model.mjs';
import { startWindow } from './webkit-window.mjs';

const peers = join(repoDir, 'testdata/peers');
const example = (name) => join(peers, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');
const en = JSON.parse(await readFile(join(repoDir, 'i18n/locales/en.json'), 'utf8'));
// The window's app frame (branch i24-frame) shows an app beside a result
// and speaks the protocol with it; until it is merged, the tests that need
// it are skipped with this reason, and only the sandbox's own test runs.
const frameMissing = existsSync(join(repoDir, 'frontend/src/components/apps'))
  ? false
  : 'the app frame (frontend/src/components/apps, branch i24-frame) is not merged yet: no app shows beside a result and nobody answers its protocol';

// Keys reach the window as a person's would: xdotool on the test's X display (GTK ignores events sent to one window).
const noXdotool = (() => {
  try {
    execFileSync('xdotool', ['version'], { stdio: 'ignore' });
    return false;
  } catch {
    return 'xdotool is not installed';
  }
})();
const xdotool = (...args) => execFileSync('xdotool', args, { encoding: 'utf8' }).trim();

/** A loopback HTTP listener that records every request (method and path) it gets. */
async function listener(cors) {
  const hits = [];
  const srv = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (cors) res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Content-Type', 'text/plain');
    res.end('ok');
  });
  // A WebSocket upgrade that gets here is a hit too.
  srv.on('upgrade', (req, socket) => {
    hits.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  return { port: srv.address().port, hits, close: () => new Promise((r) => srv.close(r)) };
}

/** A one-page PDF (a blue band and a line of text), built by hand: no tool needed, nothing fetched. */
function smallPDF() {
  const content = 'q 0.1 0.3 0.8 rg 50 700 500 60 re f Q BT /F1 24 Tf 60 640 Td (Gatehouse test PDF) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return out;
}

// Script helpers that run in the window's page (prefixed to each body).
const DOM = `
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(f, ms = 30000, what = 'a condition') {
  for (const end = Date.now() + ms; ; await sleep(100)) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting for ' + what);
  }
}
const byText = (sel, text) => [...document.querySelectorAll(sel)].find((e) => e.textContent.trim() === text);
`;

describe('MCP Apps in the real window, with the official example servers and a hostile app', () => {
  let win;
  let browser;
  let beacon;
  let declared;
  let tmp;
  let record;
  let marker;
  let model;
  /** The data folder a test started the window on again, which close() leaves. */
  let keptData = '';
  const run = (body) => win.inspector.run(DOM + body);

  /** Adds a stdio server through the bindings and waits until it is connected; returns its ID. */
  async function addServer(name, args, mode = '') {
    return run(`
      const input = ${JSON.stringify({ name, enabled: true, transport: 'stdio', command: process.execPath, args, env: {}, dir: '', url: '', headers: {} })};
      const v = await window.go.app.ServersService.Add(input);
      for (const end = Date.now() + 30000; ; await sleep(200)) {
        const s = (await window.go.app.ServersService.List()).servers.find((x) => x.id === v.id);
        if (s && s.status.state === 'connected') break;
        if (Date.now() > end) throw new Error(${JSON.stringify(name)} + ' did not connect: ' + JSON.stringify(s && s.status));
      }
      if (${JSON.stringify(mode)}) await window.go.app.PoliciesService.SetMode(v.id, ${JSON.stringify(mode)});
      return v.id;
    `);
  }

  /**
   * Calls a tool from the Tools pane as a person does (server picker, tool,
   * JSON arguments, Call) and returns the src of the app frame that shows up
   * beside the result.
   */
  async function callInToolsPane(server, tool, args) {
    return run(`
      byText('nav[aria-label="Sections"] button', 'Tools').click();
      const sel = await until(() => document.querySelector('#tool-server'), 10000, 'the server picker');
      const opt = [...sel.options].find((o) => o.textContent.includes(${JSON.stringify(server)}));
      sel.value = opt.value;
      sel.dispatchEvent(new Event('change', { bubbles: true }));
      const back = byText('button', 'All tools');
      if (back && back.offsetParent) back.click();
      const before = new Set([...document.querySelectorAll('iframe')].map((f) => f.src));
      (await until(() => document.querySelector('nav[aria-label="Tools of ' + ${JSON.stringify(server)} + '"] button[data-tool=' + ${JSON.stringify(JSON.stringify(tool))} + ']'), 10000, 'the tool')).click();
      await until(() => document.querySelector('form.call-form'), 10000, 'the call form');
      const args = ${JSON.stringify(args ? JSON.stringify(args) : '')};
      if (args) {
        const tab = document.querySelector('#tab-json');
        if (tab) tab.click();
        const ta = await until(() => document.querySelector('#args-json'), 5000, 'the JSON editor');
        ta.value = args;
        ta.dispatchEvent(new Event('input', { bubbles: true }));
      }
      byText('form.call-form button', 'Call').click();
      await until(() => document.querySelector('section[aria-label="Result"], section[aria-label="Error result"]'), 30000, 'the result');
      const frame = await until(() => [...document.querySelectorAll('iframe')].find((f) => f.src.startsWith('gatehouse-app:') && !before.has(f.src)), 30000, 'the app frame beside the result');
      return frame.src;
    `);
  }

  /** Waits in the app frame (by src) until body (an async function's body) returns something truthy; returns it. */
  async function inApp(src, body, ms = 30_000) {
    const { id } = await win.frame(src, ms);
    return win.inspector.run(
      DOM +
        `for (const end = Date.now() + ${ms}; ; await sleep(100)) {
           const v = await (async () => { ${body} })().catch(() => undefined);
           if (v) return v;
           if (Date.now() > end) throw new Error('the app never showed what the test waits for; it shows: ' + document.body.innerText.slice(0, 400));
         }`,
      id,
    );
  }

  /** Waits for the consent dialog whose text includes text, and presses button; returns the dialog's text. */
  async function answer(text, button, ms = 30_000) {
    return run(`
      const d = await until(() => [...document.querySelectorAll('dialog[open]')].find((x) => x.textContent.includes(${JSON.stringify(text)})), ${ms}, 'a dialog about ' + ${JSON.stringify(text)});
      const said = d.innerText;
      byText('dialog[open] button', ${JSON.stringify(button)}).click();
      return said;
    `);
  }

  /** Scrolls the app frame (by src) into view and saves a screenshot of the window. */
  async function shot(name, src) {
    if (src) await run(`document.querySelector('iframe[src=' + JSON.stringify(${JSON.stringify(src)}) + ']')?.scrollIntoView({ block: 'start' }); await sleep(300);`).catch(() => {});
    return win.screenshot(name);
  }

  const openDialogs = () => run(`return [...document.querySelectorAll('dialog[open]')].map((d) => d.innerText);`);
  const serverNames = () => run(`return (await window.go.app.ServersService.List()).servers.map((s) => s.input.name).sort();`);

  before(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'gatehouse-apps-'));
    record = join(tmp, 'ran.log');
    marker = join(tmp, 'pwned');
    await writeFile(join(tmp, 'test.pdf'), smallPDF());
    beacon = await listener(false);
    declared = await listener(true);
    browser = await fakeBrowser();
    model = await startStandInModel();
    win = await startWindow({ env: { PATH: browser.path, LANGUAGE: 'en', LANG: 'C.UTF-8', LC_ALL: '' } });
    await addStandInProvider(win.page, model);
  });
  afterEach(async () => {
    // A test that failed half way leaves no question on screen for the next one.
    await run(`
      const q = window.go.app.QuestionService;
      for (let s = await q.Snapshot(), n = 0; s.current && n < 20; s = await q.Snapshot(), n++) await q.Cancel(s.current.id);
    `).catch(() => {});
  });
  after(async () => {
    await win?.close();
    if (keptData) await rm(keptData, { recursive: true, force: true });
    await model?.close();
    await browser?.close();
    await beacon?.close();
    await declared?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('the sandbox alone: the hostile app, served by Go (AppsService.Open) in a frame with the sandbox of the contract, reaches only its declared address and nothing of Gatehouse', async () => {
    const servers = await serverNames();
    const id = await addServer('Hostile (bare frame)', [
      join(peers, 'hostile-app.mjs'),
      '--beacon', String(beacon.port), '--allowed', String(declared.port), '--record', record, '--marker', marker,
    ]);
    // No frame component: the test frames the app itself, as the contract says the frame does.
    const view = await run(`
      const v = await window.go.app.AppsService.Open(${JSON.stringify(id)}, 'hostile_app', '', '');
      const f = document.createElement('iframe');
      f.setAttribute('sandbox', 'allow-scripts allow-same-origin');
      f.id = 'bare-app-frame';
      f.src = v.url;
      f.style.cssText = 'position:fixed;inset:40px;width:1000px;height:650px;z-index:999;background:#fff';
      document.body.appendChild(f);
      return v;
    `);
    assert.match(view.url, /^gatehouse-app:\/\/[0-9a-f]{32}\//, 'the app has an origin of its own');
    const { id: ctx } = await win.frame(view.url);
    assert.equal(await win.inspector.run('return location.origin;', ctx), view.origin, "the app's document has the origin Go named (the one the frame talks to)");
    assert.deepEqual(view.connectDomains, [`http://127.0.0.1:${declared.port}`], 'its declared address is its only one');
    try {
      // The network and Gatehouse probes are done when the app starts on the protocol (which nobody answers here).
      await inApp(view.url, `return document.querySelector('#results li[data-probe="ui-initialize"]');`, 90_000);
      const results = await inApp(view.url, `return [...document.querySelectorAll('#results li')].map((li) => [li.dataset.probe, li.dataset.outcome, li.textContent]);`);
      await win.screenshot('e2e-apps-hostile-bare-frame');
      await sleep(2000); // late requests (a prefetch, a beacon) still reach the listener
      assert.deepEqual(beacon.hits, [], 'the undeclared address got no request at all');
      assert.deepEqual(declared.hits, ['GET /declared'], 'the declared address got the one request the app made');
      assert.deepEqual(results.filter(([, o]) => o === 'reached'), [], 'nothing the app tried reached anything');
      const byProbe = Object.fromEntries(results.map(([p, o]) => [p, o]));
      assert.equal(byProbe['fetch-declared'], 'allowed', 'the declared address works');
      for (const p of ['webkit-external', 'wails-invoke', 'chrome-webview', 'nested-frame', 'parent-document', 'top-document', 'parent-go', 'window-go']) {
        assert.equal(byProbe[p], 'blocked', `${p}: ${results.find(([q]) => q === p)?.[2]}`);
      }
      await assert.rejects(stat(marker), 'the server the app tried to add never ran');
      assert.deepEqual(await serverNames(), [...servers, 'Hostile (bare frame)'].sort(), 'no server was added');
    } finally {
      await run(`document.querySelector('#bare-app-frame')?.remove(); await window.go.app.AppsService.Close(${JSON.stringify(view.instanceId)});`).catch(() => {});
      await run(`await window.go.app.ServersService.Remove(${JSON.stringify(id)});`).catch(() => {});
      beacon.hits.length = 0;
      declared.hits.length = 0;
      await rm(record, { force: true });
    }
  });

  it("server-basic-vanillajs: its app shows the tool's result in the Tools pane; its own call of get-time asks first, then updates the app", { skip: frameMissing }, async () => {
    await addServer('Basic', [example('server-basic-vanillajs'), '--stdio']);
    const src = await callInToolsPane('Basic', 'get-time');
    const first = await inApp(src, `const t = document.querySelector('#server-time'); return t && t.textContent !== 'Loading...' && t.textContent;`);
    assert.match(first, /\d/, "the app shows the server's time from the tool's result");
    await sleep(1100);
    await inApp(src, `document.querySelector('#get-time-btn').click(); return true;`);
    const asked = await answer('get-time', 'Allow once');
    assert.match(asked, /Basic/, 'the question names the app\'s server');
    const second = await inApp(src, `const t = document.querySelector('#server-time').textContent; return t !== ${JSON.stringify(first)} && t;`);
    assert.notEqual(second, first, 'the app shows the new time after the person allowed its call');
    await shot('e2e-apps-basic', src);
  });

  it('the keyboard: Tab goes from the frame\'s buttons into the app, with a ring around it, and Tab and Shift+Tab out again', { skip: frameMissing || noXdotool }, async () => {
    const src = await callInToolsPane('Basic', 'get-time');
    const { id: ctx } = await win.frame(src);
    await inApp(src, `return document.querySelector('#get-time-btn');`);
    // The window gets the X input focus (no window manager under Xvfb).
    const wid = xdotool('search', '--pid', String(win.child.pid), '--onlyvisible', '--name', '.').split('\n').pop();
    xdotool('windowfocus', '--sync', wid);
    const where = async () => {
      const page = await run(`const f = document.querySelector('iframe[src=' + JSON.stringify(${JSON.stringify(src)}) + ']');
        const a = document.activeElement;
        return { inFrame: a === f, button: a.tagName === 'BUTTON' ? a.textContent.trim() : '', ring: getComputedStyle(f.parentElement).outlineStyle };`);
      const app = await win.inspector.run(`return { focus: document.hasFocus(), on: document.activeElement && document.activeElement.id };`, ctx);
      return { ...page, app };
    };
    const press = async (key, until) => {
      xdotool('key', key);
      for (const end = Date.now() + 5000; ; await sleep(100)) {
        const w = await where();
        if (until(w) || Date.now() > end) return w;
      }
    };
    const close = `[...document.querySelectorAll('.app-frame button')].find((b) => b.textContent.trim() === 'Close' && b.closest('.app-frame').querySelector('iframe[src=' + JSON.stringify(${JSON.stringify(src)}) + ']'))`;
    await run(`${close}.focus(); return true;`);
    let w = await where();
    assert.equal(w.button, 'Close', 'the focus starts on the frame\'s Close button');
    assert.equal(w.ring, 'none', 'no ring around the app while the keyboard is outside it');
    w = await press('Tab', (x) => x.app.focus);
    assert.ok(w.inFrame && w.app.focus, `Tab from Close goes into the app: ${JSON.stringify(w)}`);
    assert.equal(w.app.on, 'get-time-btn', "to the app's first control");
    assert.equal(w.ring, 'solid', 'a ring shows the keyboard is in the app');
    w = await press('shift+Tab', (x) => !x.app.focus);
    assert.equal(w.button, 'Close', `Shift+Tab from the app's first control comes back to Close: ${JSON.stringify(w)}`);
    assert.equal(w.ring, 'none', 'the ring goes with the keyboard');
    // Tab through the app and out of it, past its last control.
    w = await press('Tab', (x) => x.app.focus);
    for (let i = 0; i < 20 && w.inFrame; i++) {
      const before = JSON.stringify(w);
      w = await press('Tab', (x) => JSON.stringify(x) !== before);
    }
    assert.ok(!w.inFrame && !w.app.focus, `Tab leaves the app after its last control: ${JSON.stringify(w)}`);
    await shot('e2e-apps-keyboard', src);
  });

  it('a chat: the model calls get-time and the app shows inside the tool call card, and keeps running when the turn ends', { skip: frameMissing }, async () => {
    // The model answers the tool's result only when the test says: the app
    // is shown while the turn still runs, and must be the same app after.
    let release;
    const released = new Promise((res) => (release = res));
    model.reply = async (req) => {
      const last = lastMessage(req);
      if (last.role === 'user' && offersTools(req)) return { toolCalls: [{ name: offeredTool(req, 'get-time', 'Basic'), arguments: {} }] };
      if (last.role === 'tool') {
        await released;
        return { text: `It is ${messageText(last)}.` };
      }
      return { text: 'no tools offered' };
    };
    await run(`
      byText('nav[aria-label="Sections"] button', 'Chat').click();
      (await until(() => byText('button', 'New conversation'), 10000, 'New conversation')).click();
      const box = await until(() => document.querySelector('textarea[aria-label="Message"], [aria-label="Message"]'), 10000, 'the message box');
      box.value = 'What time is it on the server?';
      box.dispatchEvent(new Event('input', { bubbles: true }));
      box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    `);
    await answer('get-time', 'Allow once');
    const cardApp = `
      const card = await until(() => [...document.querySelectorAll('section[aria-label="Tool call get-time"]')].pop(), 30000, 'the tool call card');
      const f = await until(() => card.querySelector('iframe[src^="gatehouse-app:"]'), 30000, 'the app in the card');
      return f.src;`;
    // While the turn runs (the model has not answered yet).
    const running = await run(cardApp);
    const shown = await inApp(running, `const t = document.querySelector('#server-time'); return t && t.textContent !== 'Loading...' && t.textContent;`);
    assert.match(shown, /\d/, "the app in the card shows the call's result");
    // The app's own state: something it holds only as long as it runs.
    await inApp(running, `window.__keptAcrossTheTurn = 'yes'; return true;`);
    release();
    const src = await run(`
      await until(() => [...document.querySelectorAll('section[aria-label="Conversation"]')].some((c) => c.innerText.includes('It is ')), 30000, "the model's answer");
      await until(() => !document.querySelector('[aria-busy="true"]'), 30000, 'the turn to end');
      await sleep(500);
      ${cardApp}
    `);
    assert.equal(src, running, 'the card keeps the same app instance when its turn is stored');
    assert.equal(await inApp(src, `return window.__keptAcrossTheTurn;`), 'yes', 'the app kept its state: it was not loaded again');
    assert.equal(await run(`return document.querySelectorAll('iframe[src^="gatehouse-app:"]').length;`), 1, 'one app, not a second copy');
    await shot('e2e-apps-chat', src);
  });

  it("a turn that opens four apps at once ends with the model's answer in view, still following the newest", { skip: frameMissing }, async () => {
    // Each app's frame gives back some height and takes more as it loads:
    // the browser pulled the view up under the newest, which the
    // transcript once took for the person scrolling up ("Jump to the newest").
    model.reply = async (req) => {
      const last = lastMessage(req);
      if (last.role === 'user' && offersTools(req)) {
        const name = offeredTool(req, 'get-time', 'Basic');
        return { toolCalls: [1, 2, 3, 4].map(() => ({ name, arguments: {} })) };
      }
      if (last.role === 'tool') return { text: 'Here are four times.' };
      return { text: 'no tools offered' };
    };
    const seen = await run(`
      const s = (await window.go.app.ServersService.List()).servers.find((x) => x.input.name === 'Basic');
      await window.go.app.PoliciesService.SetMode(s.id, 'allow');
      // A conversation of its own: the restarted window's test reads the first one's single app.
      byText('button', 'New conversation').click();
      await until(() => !document.querySelector('iframe[src^="gatehouse-app:"]'), 10000, 'the new, empty conversation');
      const box = await until(() => document.querySelector('textarea[aria-label="Message"]'), 10000, 'the message box');
      box.value = 'What time is it, four times?';
      box.dispatchEvent(new Event('input', { bubbles: true }));
      box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      await until(() => document.querySelectorAll('iframe[src^="gatehouse-app:"]').length >= 4, 30000, 'four apps');
      await until(() => [...document.querySelectorAll('section[aria-label="Conversation"]')].some((c) => c.innerText.includes('Here are four times.')), 30000, "the model's answer");
      await until(() => !document.querySelector('[aria-busy="true"]'), 30000, 'the turn to end');
      await sleep(2000); // the apps take their heights
      const sc = document.querySelector('.messages');
      const answer = [...sc.querySelectorAll('.row')].filter((r) => r.textContent.includes('Here are four times.')).pop();
      const view = sc.getBoundingClientRect();
      const a = answer.getBoundingClientRect();
      return {
        jump: [...document.querySelectorAll('button')].some((b) => b.textContent.includes('Jump to the newest')),
        fromBottom: sc.scrollHeight - sc.scrollTop - sc.clientHeight,
        answerInView: a.top >= view.top && a.bottom <= view.bottom + 1,
      };
    `);
    await win.screenshot('e2e-apps-four-in-a-turn');
    assert.equal(seen.jump, false, 'no "Jump to the newest": the view still follows');
    assert.ok(seen.fromBottom < 24, `the view is at the bottom (${seen.fromBottom}px above it)`);
    assert.ok(seen.answerInView, "the model's answer is in view");
  });

  it('server-system-monitor: its app polls the app-only poll-system-stats, which is marked in the Tools pane and not offered to the model', { skip: frameMissing }, async () => {
    const id = await addServer('System monitor', [example('server-system-monitor'), '--stdio'], 'allow');
    const tools = await run(`return await window.go.app.ToolsService.List(${JSON.stringify(id)});`);
    const poll = tools.find((t) => t.name === 'poll-system-stats');
    assert.equal(poll?.app?.forModel, false, `poll-system-stats is for the app only: ${JSON.stringify(poll)}`);
    const src = await callInToolsPane('System monitor', 'get-system-info');
    await inApp(src, `const h = document.querySelector('#info-hostname'); return h && h.textContent !== '--' && h.textContent;`);
    await inApp(src, `document.querySelector('#poll-toggle-btn').click(); return true;`);
    const memory = await inApp(src, `const m = document.querySelector('#memory-percent').textContent; return /\\d/.test(m) && m;`);
    assert.match(memory, /\d+/, 'the app shows what its polls returned');
    const history = await run(`return (await window.go.app.QuestionService.History(${JSON.stringify(id)}, '', 0)).entries.map((e) => [e.tool, e.source]);`);
    assert.ok(
      history.some(([tool, source]) => tool === 'poll-system-stats' && source === 'app'),
      `History records the app's polls with the app as their source: ${JSON.stringify(history.slice(0, 5))}`,
    );
    // The Tools pane marks the app-only tool with a sentence from the catalogue.
    // (the badge's text: a catalogue entry of the tools or apps namespace naming a tool for apps only, without placeholders)
    const appOnly = Object.entries(en)
      .filter(([k, v]) => /^(tools|apps)\./.test(k) && /app/i.test(k) && /only/i.test(k + v) && !/\{/.test(v) && !/^apps\.error\./.test(k))
      .map(([, v]) => v.trim());
    assert.ok(appOnly.length, 'the catalogue has a badge text marking a tool for apps only');
    const entry = await run(
      `const b = document.querySelector('nav[aria-label="Tools of System monitor"] button[data-tool="poll-system-stats"]'); return (b.closest('li') || b).innerText + ' ' + (b.getAttribute('title') || '') + ' ' + (b.getAttribute('aria-label') || '');`,
    );
    assert.ok(appOnly.some((s) => entry.includes(s)), `poll-system-stats is marked as for apps only (one of ${JSON.stringify(appOnly)}): ${entry}`);
    await shot('e2e-apps-system-monitor', src);
    // The model is never offered it.
    model.reply = (req) => ({ text: JSON.stringify((req.tools ?? []).map((t) => t.function?.name)) });
    await run(`
      byText('nav[aria-label="Sections"] button', 'Chat').click();
      (await until(() => byText('button', 'New conversation'), 10000, 'New conversation')).click();
      const box = await until(() => document.querySelector('[aria-label="Message"]'), 10000, 'the message box');
      box.value = 'tools?';
      box.dispatchEvent(new Event('input', { bubbles: true }));
      box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    `);
    await sleep(3000);
    const offered = model.requests.flatMap((r) => (r.tools ?? []).map((t) => t.function?.name ?? ''));
    assert.ok(offered.some((n) => n.includes('get-system-info')), `the model is offered get-system-info: ${offered.join(', ')}`);
    assert.ok(!offered.some((n) => n.includes('poll-system-stats')), `the model is not offered poll-system-stats: ${offered.join(', ')}`);
  });

  it("server-budget-allocator: its app draws the tool's data and a slider changes its state", { skip: frameMissing }, async () => {
    await addServer('Budget allocator', [example('server-budget-allocator'), '--stdio']);
    const src = await callInToolsPane('Budget allocator', 'get-budget-data');
    const rows = await inApp(src, `return document.querySelectorAll('.slider-row').length;`);
    assert.ok(rows >= 3, `the app draws one slider per category: ${rows}`);
    const status = await inApp(src, `const s = document.querySelector('#status-bar').textContent.trim(); return /\\$[1-9]/.test(s) && s;`);
    const changed = await inApp(
      src,
      `const s = document.querySelector('.slider-row .slider'); s.value = '95'; s.dispatchEvent(new Event('input', { bubbles: true }));
       const now = document.querySelector('#status-bar').textContent.trim(); return now !== ${JSON.stringify(status)} && now;`,
    );
    assert.match(changed, /Over/, 'moving a slider to 95% puts the budget over');
    await shot('e2e-apps-budget', src);
  });

  it('server-pdf: its app reads a local PDF through its own app-only tool and shows it', { skip: frameMissing }, async () => {
    const pdf = join(tmp, 'test.pdf');
    await addServer('PDF viewer', [example('server-pdf'), '--stdio', pdf], 'allow');
    const src = await callInToolsPane('PDF viewer', 'display_pdf', { url: pdf });
    const shown = await inApp(
      src,
      `const v = document.querySelector('#viewer'), e = document.querySelector('#error');
       if (e && e.style.display !== 'none') return 'error: ' + document.querySelector('#error-message').textContent;
       return v && v.style.display !== 'none' && document.querySelector('canvas') && 'viewer: ' + document.querySelector('#pdf-title').textContent;`,
      60_000,
    );
    assert.match(shown, /^viewer: /, `the PDF viewer shows the document: ${shown}`);
    // pdf.js draws the page in its worker's wake: the blue band of the test PDF is on the canvas.
    const drawn = await inApp(
      src,
      `const c = document.querySelector('#pdf-canvas');
       if (!c || !c.width || !c.height) return false;
       const d = c.getContext('2d').getImageData(0, 0, c.width, Math.ceil(c.height / 4)).data;
       for (let i = 0; i < d.length; i += 4) if (d[i] < 80 && d[i + 1] > 40 && d[i + 1] < 120 && d[i + 2] > 160) return 'blue at ' + i / 4;
       return false;`,
      30_000,
    );
    assert.match(drawn, /^blue at /, 'the page of the PDF is drawn (its blue band)');
    await shot('e2e-apps-pdf', src);

    // server-pdf declares clipboardWrite: the app gets nothing until the person allows it.
    const frameOf = (s) => `document.querySelector('iframe[src=' + JSON.stringify(${JSON.stringify(s)}) + ']')`;
    const bar = await run(`
      const f = ${frameOf(src)};
      const section = f.closest('.app-frame');
      section.scrollIntoView({ block: 'start' });
      const g = await until(() => section.querySelector('[role="group"]'), 10000, 'the permissions bar');
      return { text: g.innerText, allow: f.getAttribute('allow') };
    `);
    assert.match(bar.text, /This app asks for writing to the clipboard\./, `the bar names what the app asks for: ${bar.text}`);
    assert.equal(bar.allow, null, 'no permission before the person allows it');
    for (const lang of ['zh-CN', 'en']) {
      await run(`await window.go.app.SettingsService.SetLanguage(${JSON.stringify(lang)}); await sleep(800); ${frameOf(src)}.closest('.app-frame').scrollIntoView({ block: 'start' }); await sleep(300);`);
      await win.screenshot(`e2e-apps-pdf-permissions-${lang}`);
    }
    const allowed = await run(`
      const section = ${frameOf(src)}.closest('.app-frame');
      byText('.app-frame [role="group"] button', 'Allow').click();
      const f = await until(() => { const x = section.querySelector('iframe'); return x && x.getAttribute('allow') && x; }, 15000, 'the frame loaded again with what was allowed');
      return { allow: f.getAttribute('allow'), src: f.src, bar: !!section.querySelector('[role="group"]') };
    `);
    assert.deepEqual(allowed, { allow: 'clipboard-write', src, bar: false }, 'Allow loads the same instance again with clipboard-write, and the bar goes');
    const again = await inApp(src, `const c = document.querySelector('#pdf-canvas'); return c && c.width > 0 && document.querySelector('#viewer').style.display !== 'none' && 'shown';`, 60_000);
    assert.equal(again, 'shown', 'the PDF shows again after the reload');
  });

  it('server-map: offline, its app says in its frame that the globe could not load; the window is unharmed', { skip: frameMissing }, async () => {
    await addServer('Map', [example('server-map'), '--stdio']);
    const src = await callInToolsPane('Map', 'show-map');
    const said = await inApp(src, `const l = document.querySelector('#loading'); return l && /Error|Failed/.test(l.textContent) && l.textContent;`, 60_000);
    assert.match(said, /CesiumJS/, 'the app says what failed');
    assert.ok(win.alive(), 'the window is still running');
    await shot('e2e-apps-map-offline', src);
  });

  it('the hostile app reaches only what it declared, adds no server, runs no tool it may not, opens nothing, and its flood closes it, not the window', { skip: frameMissing }, async () => {
    const servers = await serverNames();
    const hostileArgs = (extra) => [join(peers, 'hostile-app.mjs'), ...extra, '--beacon', String(beacon.port), '--allowed', String(declared.port), '--record', record, '--marker', marker];
    await addServer('Victim', hostileArgs(['--victim']));
    const hostileID = await addServer('Hostile', hostileArgs([]));
    const before = await serverNames();
    assert.deepEqual(before, [...servers, 'Hostile', 'Victim'].sort());

    const src = await callInToolsPane('Hostile', 'hostile_app', { flood: false });
    // The app asks for its destructive tool: the person denies it.
    const asked = await answer('wipe', 'Deny', 60_000);
    assert.match(asked, /Hostile/, 'the question names the app and its server');
    // Its https link is asked in the consent dialog, naming the app; the person opens it.
    await run(`await until(() => [...document.querySelectorAll('dialog[open]')].find((x) => x.textContent.includes('docs.example')), 60000, 'the app link question');`);
    await win.screenshot('e2e-apps-link-consent');
    const link = await answer('docs.example', 'Open in browser');
    assert.match(link, /An app of Hostile wants to open a page/, `the dialog says whose app asks: ${link}`);
    assert.match(link, /The Hostile app app \(server Hostile\) asks you to open this address/, `it names the app: ${link}`);
    const done = await inApp(src, `const s = document.querySelector('#summary'); return s.dataset.done && s.dataset.done;`, 90_000);
    const results = await inApp(src, `return [...document.querySelectorAll('#results li')].map((li) => [li.dataset.probe, li.dataset.outcome, li.textContent]);`);
    await shot('e2e-apps-hostile', src);
    await sleep(2000); // late requests (a prefetch, a beacon) still reach the listener

    assert.deepEqual(beacon.hits, [], 'the undeclared address got no request at all');
    assert.deepEqual(declared.hits, ['GET /declared'], 'the declared address got the one request the app made');
    const reached = results.filter(([, o]) => o === 'reached');
    assert.deepEqual(reached, [], 'nothing the app tried reached anything');
    assert.equal(done, 'contained');
    assert.equal(results.find(([p]) => p === 'ui-initialize')?.[1], 'answered', 'the frame answers the app\'s ui/initialize');
    const byProbe = Object.fromEntries(results.map(([p, o]) => [p, o]));
    assert.equal(byProbe['fetch-declared'], 'allowed', 'the declared address works');
    for (const p of ['call-model-only', 'call-other-server', 'read-other-server', 'call-wipe', 'open-file', 'open-smb', 'open-javascript']) {
      assert.equal(byProbe[p], 'refused', `${p} is refused`);
    }
    assert.equal(byProbe['open-https'], 'answered', 'the app hears that the page it asked for was opened');
    const ran = (await readFile(record, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    assert.deepEqual(ran, ['hostile_app ran'], 'only the tool the person called ran: not model_only, victim_tool, the secret or the denied wipe');
    await assert.rejects(stat(marker), 'the server the app tried to add never ran');
    assert.deepEqual(await serverNames(), before, 'no server was added');
    assert.deepEqual(await browser.args(), ['ARG:https://docs.example/help?from=app'], 'only the page the person agreed to was opened');
    assert.deepEqual(await openDialogs(), [], 'no dialog is left open (no question for file:, smb: or javascript:)');
    const history = await run(`return (await window.go.app.QuestionService.History(${JSON.stringify(hostileID)}, '', 0)).entries.map((e) => [e.tool, e.source, e.outcome]);`);
    assert.ok(
      history.some(([tool, source]) => tool === 'wipe' && source === 'app'),
      `History records the app's denied wipe with the app as its source: ${JSON.stringify(history)}`,
    );

    // The app's size request of 100,000 px is clamped.
    const height = await run(`return document.querySelector('iframe[src=' + JSON.stringify(${JSON.stringify(src)}) + ']').getBoundingClientRect().height;`);
    assert.ok(height > 0 && height <= 5000, `the frame's height is bounded: ${height}`);

    // Screenshots of the contained app in English and Chinese, light and dark.
    for (const [lang, theme] of [['en', 'light'], ['en', 'dark'], ['zh-CN', 'light'], ['zh-CN', 'dark']]) {
      await run(`await Promise.all([window.go.app.SettingsService.SetLanguage(${JSON.stringify(lang)}), window.go.app.ThemeService.Set(${JSON.stringify(theme)})]); await sleep(800);`);
      await shot(`e2e-apps-hostile-${lang}-${theme}`, src);
    }
    await run(`await Promise.all([window.go.app.SettingsService.SetLanguage('en'), window.go.app.ThemeService.Set('system')]);`);

    // The flood: the app is closed with a sentence; the window lives on.
    const closedSentences = Object.entries(en)
      .filter(([k, v]) => /^app(s|Frame)\./.test(k) && /clos/i.test(v) && /second|flood|rate/i.test(v))
      .map(([, v]) => v.split(/\{[^}]*\}/)[0].trim())
      .filter(Boolean);
    assert.ok(closedSentences.length, 'the catalogue has a sentence for an app closed for flooding (apps.* or appFrame.*: "… closed … a second")');
    const flooded = await callInToolsPane('Hostile', 'hostile_app', { flood: true });
    // The app asks for wipe and its link again before it floods: denied and declined.
    await answer('wipe', 'Deny', 90_000);
    await answer('docs.example', 'Decline', 90_000);
    const said = await run(`
      await until(() => !document.querySelector('iframe[src=' + JSON.stringify(${JSON.stringify(flooded)}) + ']'), 60000, 'the flooding app to be closed');
      const text = document.body.innerText;
      return ${JSON.stringify(closedSentences)}.find((s) => text.includes(s)) || text.slice(0, 2000);
    `);
    assert.ok(closedSentences.includes(said), `the window says the app was closed: ${said}`);
    assert.ok(win.alive(), 'the window is still running');
    assert.ok(await run(`return !!document.querySelector('nav[aria-label="Sections"]');`), 'the window still answers');
    await sleep(2000);
    assert.deepEqual(await openDialogs(), [], 'no question of the closed app is left on screen (its 200 flooded wipe calls included)');
    assert.deepEqual(await browser.args(), ['ARG:https://docs.example/help?from=app'], 'the declined link was not opened');
    const after = (await readFile(record, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    assert.ok(!after.some((l) => /wipe|model_only|victim|secret/.test(l)), `no flooded call ran: ${after.join(', ')}`);
    assert.deepEqual(beacon.hits, [], 'the undeclared address still got nothing');
    await win.screenshot('e2e-apps-hostile-flooded');
  });

  // Last: it starts the window again on the same data folder.
  it('Gatehouse started again: the conversation shows its call\'s app again, given the call\'s result', { skip: frameMissing }, async () => {
    const env = { PATH: browser.path, LANGUAGE: 'en', LANG: 'C.UTF-8', LC_ALL: '' };
    keptData = win.dataDir;
    await win.close({ keepData: true });
    win = await startWindow({ env, dataDir: keptData });
    // What the window shows when the Chat section does not come (for the failure's message).
    const shown = () => run(`return document.body.innerText.slice(0, 600);`).catch((e) => String(e));
    // The test reads English: the language the hostile app's test set last is not this test's concern.
    await run(`await window.go.app.SettingsService.SetLanguage('en'); await until(() => byText('nav[aria-label="Sections"] button', 'Chat'), 30000, 'the Chat section');`).catch(async (e) => {
      await win.screenshot('e2e-apps-restarted-no-chat').catch(() => {});
      throw new Error(`${e.message}; the window shows: ${await shown()}`);
    });
    const src = await run(`
      byText('nav[aria-label="Sections"] button', 'Chat').click();
      (await until(() => byText('button', 'What time is it on the server?'), 10000, 'the conversation in the list')).click();
      await until(() => [...document.querySelectorAll('section[aria-label="Conversation"]')].some((c) => c.innerText.includes('It is ')), 30000, "the stored answer");
      const card = await until(() => [...document.querySelectorAll('section[aria-label="Tool call get-time"]')].pop(), 30000, 'the stored tool call card');
      const f = await until(() => card.querySelector('iframe[src^="gatehouse-app:"]'), 30000, 'the app in the stored card');
      return f.src;
    `);
    const time = await inApp(src, `const t = document.querySelector('#server-time'); return t && t.textContent !== 'Loading...' && t.textContent;`);
    assert.match(time, /\d/, "after the restart the app shows the call's stored result");
    await shot('e2e-apps-chat-restarted', src);
  });
});

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}
