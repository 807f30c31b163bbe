// P10: the MCP Inspector's side of "a tool's result → the app's first
// paint". Opens the Inspector's web UI in the system Chromium as a real
// window on $DISPLAY, where Gatehouse's window opens (so the benchmark reads
// both from the same screen), connects the server the Inspector was started
// with and shows its "Apps" tab. Prints {"ready":true}. Then, for each line
// on stdin:
//   open   selects the app "Get Time" in the list: the Inspector calls the
//          tool and renders its app (the benchmark times it from the screen);
//          prints {"done":true} once clicked
//   close  presses the app panel's close button, waits until the app's frame
//          has gone, clears the Inspector's logs (its best case, as in P7)
//          and prints {"done":true}
// The script only drives the page; it measures nothing.
//
//   node inspector-apps.mjs URL SERVER-NAME APP-NAME [SCREENSHOT.png]
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const [url, serverName, appName, shot] = process.argv.slice(2);
const out = (v) => process.stdout.write(JSON.stringify(v) + '\n');
const firstLine = (e) => String(e?.message ?? e).split('\n')[0];
let browser;
let page;

try {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: false,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--window-size=1100,760', '--window-position=90,20'],
  });
  const context = await browser.newContext({ viewport: null }); // the page fills the window
  page = await context.newPage();
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  const toggle = page.getByRole('switch', { name: `Connect or disconnect "${serverName}"` });
  await toggle.waitFor({ state: 'attached', timeout: 60_000 });
  await toggle.click({ force: true });
  await page.getByText('Connected', { exact: true }).first().waitFor({ timeout: 60_000 });
  await page.getByRole('tab', { name: 'Apps' }).or(page.getByText('Apps', { exact: true })).first().click({ timeout: 30_000 });
  await page.getByText(appName, { exact: true }).first().waitFor({ timeout: 30_000 });
  await clearLogs();
  if (shot) await page.screenshot({ path: shot });
  out({ ready: true });
} catch (e) {
  out({ ready: false, error: firstLine(e) });
  await browser?.close();
  process.exit(1);
}

// clearLogs presses every visible "Clear" of the logs (messages, network,
// console, ...): the Inspector's best case, nothing to re-render next time.
async function clearLogs() {
  const buttons = page.getByRole('button', { name: 'Clear', exact: true });
  for (const b of await buttons.all()) {
    if ((await b.isVisible()) && (await b.isEnabled())) await b.click({ timeout: 2_000 }).catch(() => {});
  }
}

// The app's frames: the Inspector's sandbox proxy and the app inside it.
const appFrames = () => page.locator('iframe');

for await (const line of createInterface({ input: process.stdin })) {
  const order = line.trim();
  try {
    if (order === 'open') {
      await page.getByText(appName, { exact: true }).first().click({ timeout: 10_000 });
      out({ done: true });
    } else if (order === 'close') {
      // The app panel's header: its title, then the buttons Maximize and Close (icons).
      await page.getByRole('button', { name: 'Close', exact: true }).filter({ visible: true }).first().click({ timeout: 10_000 });
      await appFrames().first().waitFor({ state: 'detached', timeout: 10_000 });
      await clearLogs();
      out({ done: true });
    }
  } catch (e) {
    out({ done: false, error: firstLine(e) });
  }
}
await browser.close();
process.exit(0);
