// P7: the MCP Inspector's side of "a question reaches the person". Opens the
// Inspector's web UI in the system Chromium as a real window on $DISPLAY,
// placed where Gatehouse's window opens (so the benchmark reads both from the
// same screen row), and connects the server the Inspector was started with.
// Prints {"ready":true} once connected. Then, for every line "answer" on
// stdin: waits for the Elicitation Request dialog, answers Cancel, waits until
// the dialog has gone, clears the Inspector's message logs (its best case:
// nothing to re-render next time) and prints {"done":true}. The benchmark
// times the dialog from the screen; this script only drives the page.
//
//   node inspector-ask.mjs URL SERVER-NAME [SCREENSHOT.png]
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const [url, serverName, shot] = process.argv.slice(2);
const out = (v) => process.stdout.write(JSON.stringify(v) + '\n');
const firstLine = (e) => String(e?.message ?? e).split('\n')[0];
let browser;
let page;

// clearLogs presses every visible "Clear" of the logs (messages, network,
// console, ...), outside dialogs.
async function clearLogs() {
  const buttons = page.getByRole('button', { name: 'Clear', exact: true });
  for (const b of await buttons.all()) {
    if ((await b.isVisible()) && (await b.isEnabled())) await b.click({ timeout: 2_000 }).catch(() => {});
  }
}

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
  // Mantine's switch is an input drawn over by its track: clicked as it is.
  const toggle = page.getByRole('switch', { name: `Connect or disconnect "${serverName}"` });
  await toggle.waitFor({ state: 'attached', timeout: 60_000 });
  await toggle.click({ force: true });
  await page.getByText('Connected', { exact: true }).first().waitFor({ timeout: 60_000 });
  await clearLogs();
  if (shot) await page.screenshot({ path: shot });
  out({ ready: true });
} catch (e) {
  out({ ready: false, error: firstLine(e) });
  await browser?.close();
  process.exit(1);
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'answer') continue;
  try {
    const dialog = page.getByRole('dialog', { name: /Elicitation Request/ });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click({ timeout: 10_000 });
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    await clearLogs();
    out({ done: true });
  } catch (e) {
    out({ done: false, error: firstLine(e) });
  }
}
await browser.close();
process.exit(0);
