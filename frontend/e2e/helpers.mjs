// End-to-end test helpers: run the real Gatehouse (a dev-tagged build, whose
// Wails dev server exposes the live Go bindings over a WebSocket) and drive
// its UI in Chromium with playwright-core.
//
// Needs: env GATEHOUSE_DEV_BIN (go build -tags dev,webkit2_41), an X display
// (xvfb-run) because the app also opens its own window, /usr/bin/chromium,
// and a built frontend in ../dist.

import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const frontendDir = resolve(here, '..');
export const repoDir = resolve(frontendDir, '..');
export const distDir = join(frontendDir, 'dist');
/** Where screenshots go: $GATEHOUSE_TEST_OUTPUT (set by make test-e2e), else <repo>/test-output. */
export const outputDir = process.env.GATEHOUSE_TEST_OUTPUT ? resolve(process.env.GATEHOUSE_TEST_OUTPUT) : join(repoDir, 'test-output');
export const everythingServer = join(
  repoDir,
  'testdata/peers/node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A free TCP port on loopback. */
export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitForHTTP(url, child, logs, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`gatehouse exited (${child.exitCode ?? child.signalCode}) before serving ${url}:\n${logs.join('')}`);
    }
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`gatehouse did not serve ${url} within ${timeoutMs} ms:\n${logs.join('')}`);
    await sleep(100);
  }
}

/** Stops a child started as its own process group: SIGTERM, then SIGKILL after 5 s. */
export function stopGroup(child) {
  return new Promise((res) => {
    if (child.exitCode !== null || child.signalCode !== null) return res();
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      res();
    });
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      clearTimeout(timer);
      res();
    }
  });
}

/**
 * Starts Gatehouse on a fresh data folder and opens its UI in Chromium.
 * env adds to (or overrides) the app's environment, e.g. a PATH with a
 * stand-in browser (see fakeBrowser). dataDir starts it on an existing data
 * folder instead (a restart), which close() then leaves in place. cwd is
 * the folder the app is started in (a project folder, whose files the
 * import dialog lists apart); the test's own when empty.
 * browserArgs are added to Chromium's command line (e.g. --log-net-log=FILE).
 * Returns { page, url, dataDir, logs, problems, close }. problems collects
 * page errors and console errors (CSP violations show up there).
 */
export async function startApp({ env = {}, dataDir: reuse = '', cwd = undefined, browserArgs = [] } = {}) {
  const bin = process.env.GATEHOUSE_DEV_BIN;
  if (!bin) throw new Error('set GATEHOUSE_DEV_BIN to a dev build: go build -tags dev,webkit2_41 -o build/bin/gatehouse-dev .');
  if (!process.env.DISPLAY) throw new Error('no X display: run under xvfb-run -a');
  await stat(join(distDir, 'index.html')).catch(() => {
    throw new Error(`no built frontend in ${distDir}: run npm run build first`);
  });
  await mkdir(outputDir, { recursive: true });

  const dataDir = reuse || (await mkdtemp(join(tmpdir(), 'gatehouse-e2e-')));
  const removeData = () => (reuse ? Promise.resolve() : rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const logs = [];
  const child = spawn(resolve(bin), ['-assetdir', distDir, '-devserver', `127.0.0.1:${port}`], {
    env: { ...process.env, ...env, GATEHOUSE_DATA_DIR: dataDir },
    cwd,
    detached: true, // its own process group, so teardown ends the stdio servers it started too
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => logs.push(String(d)));
  child.stderr.on('data', (d) => logs.push(String(d)));

  let browser;
  try {
    await waitForHTTP(url, child, logs, 30_000);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...chromiumArgs, ...browserArgs], headless: true });
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => {
      // Wails v2.13.0's own dev-server script (/wails/ipc.js) throws this while
      // mounting its connection overlay, on any page, even an empty one: not ours.
      if (String(e.stack).includes('/wails/ipc.js')) return;
      problems.push(`page error: ${e.message}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    await page.goto(url);
    return {
      page,
      url,
      dataDir,
      logs,
      problems,
      async close() {
        await browser?.close().catch(() => {});
        await stopGroup(child);
        await removeData();
      },
    };
  } catch (e) {
    await browser?.close().catch(() => {});
    await stopGroup(child);
    await removeData();
    throw e;
  }
}

/** The card of a server in the Servers pane. */
export function serverCard(page, name) {
  return page.getByRole('listitem', { name, exact: true });
}

/** Waits until a server's status badge reads state ("connected", "error", ...). */
export async function waitForState(page, name, state, timeout = 30_000) {
  const badge = serverCard(page, name).locator('[data-state]');
  try {
    await badge.and(page.locator(`[data-state="${state}"]`)).waitFor({ timeout });
  } catch (e) {
    const now = await badge.getAttribute('data-state').catch(() => '(no card)');
    const text = await serverCard(page, name).innerText().catch(() => '');
    // What the Go core itself says, to tell a UI that missed an event from a server that never connected.
    const core = await page
      .evaluate(async (n) => {
        const list = (await window.go.app.ServersService.List()).servers;
        const s = list.find((x) => x.input.name === n);
        if (!s) return 'not in ServersService.List()';
        const log = await window.go.app.ServersService.Log(s.id).catch((err) => String(err));
        return `core status: ${JSON.stringify(s.status)}\nlog:\n${log}`;
      }, name)
      .catch((err) => `could not ask the core: ${err}`);
    throw new Error(`${name} did not become ${state}; the UI shows ${now}:\n${text}\n${core}\n${e.message}`);
  }
}

/** Opens the Tools pane on a server and selects one of its tools (by name). */
export async function openTool(page, serverName, toolName) {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Tools' }).click();
  const picker = page.getByLabel('Server', { exact: true });
  const value = await picker.locator('option', { hasText: serverName }).first().getAttribute('value');
  await picker.selectOption(value);
  // A narrow window shows the chosen tool or the list: back to the list first.
  const back = page.getByRole('button', { name: 'All tools' });
  if (await back.isVisible()) await back.click();
  const list = page.getByRole('navigation', { name: `Tools of ${serverName}` });
  await list.locator(`button[data-tool="${toolName}"]`).click();
}

/** Presses Call and waits for the result (or error result) region. */
export async function pressCall(page) {
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const result = page.getByRole('region', { name: /^(Result|Error result)$/ });
  await result.waitFor({ timeout: 30_000 });
  return result;
}

/** The opened tool's call form, drawn once Go sent the tool's form (it is not in the tool list). */
export function callForm(page) {
  return page.locator('form.call-form');
}

/** Calls a tool (by its name) with JSON arguments typed in the JSON editor; returns the result region. */
export async function callTool(page, serverName, toolName, args) {
  await openTool(page, serverName, toolName);
  await callForm(page).waitFor();
  const jsonTab = page.getByRole('tab', { name: 'JSON' });
  if (await jsonTab.count()) await jsonTab.click();
  await page.getByLabel('Arguments (JSON object)').fill(JSON.stringify(args));
  return pressCall(page);
}

/**
 * A stand-in for the system browser: a directory with an xdg-open that
 * records each of its arguments as an "ARG:" line and opens nothing. The
 * real system browser cannot run in the test machine; everything up to the
 * exec of xdg-open is Gatehouse's real code. Returns { dir, args() }.
 */
export async function fakeBrowser() {
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-browser-'));
  const log = join(dir, 'argv.log');
  await writeFile(
    join(dir, 'xdg-open'),
    `#!/bin/sh\nfor a in "$@"; do printf 'ARG:%s\\n' "$a" >> '${log}'; done\n`,
    { mode: 0o755 },
  );
  return {
    dir,
    path: `${dir}:${process.env.PATH}`,
    async args() {
      const text = await readFile(log, 'utf8').catch(() => '');
      return text.split('\n').filter(Boolean);
    },
    async close() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens Settings on one of its sections: the left navigation's Settings,
 * then the side list's tab by its name ("Models", "Tool permissions",
 * "Requests from servers", …; a RegExp for either language). The pane
 * shows one section at a time and keeps the last one chosen, so a test
 * names the one it needs.
 */
export async function openSettingsAt(page, tab) {
  await page.getByRole('navigation', { name: /^(Sections|栏目)$/ }).getByRole('button', { name: /^(Settings|设置)$/ }).click();
  const t = page.getByRole('tablist', { name: /^(Sections of Settings|设置分区)$/ }).getByRole('tab', { name: tab, exact: typeof tab === 'string' });
  await t.click();
  await page.locator('[role="tab"][aria-selected="true"]', { hasText: tab }).waitFor();
}

/**
 * Runs fn in the page (it may be async, such as a call to Go) every 100 ms
 * until it returns a truthy value, and returns that value; throws after
 * timeout ms. Not page.waitForFunction: a promise is truthy, so that
 * returns at once with the first answer, whatever it is.
 */
export async function pollPage(page, fn, arg, timeout = 10_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await page.evaluate(fn, arg);
    if (value) return value;
    if (Date.now() > end) throw new Error(`no truthy answer from the page within ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
