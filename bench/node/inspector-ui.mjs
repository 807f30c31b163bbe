// P3: opens the MCP Inspector's web UI in the system Chromium, as a real
// window on $DISPLAY (not headless), so that its memory can be measured next
// to Gatehouse's window. Prints {"ready":true} once the UI has rendered,
// then keeps the browser open until stdin closes.
//
//   node inspector-ui.mjs URL [SCREENSHOT.png]
import { chromium } from 'playwright-core';

const [url, shot] = process.argv.slice(2);
const out = (v) => process.stdout.write(JSON.stringify(v) + '\n');
let browser;
try {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: false,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--window-size=1100,760'],
  });
  const page = await browser.newPage({ viewport: { width: 1100, height: 680 } });
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  // The Inspector's server list: its "Add Servers" button. (Offline, one
  // resource it links from the internet fails to load; the UI does not need it.)
  await page.getByRole('button', { name: /add server/i }).first().waitFor({ timeout: 60_000 });
  if (shot) await page.screenshot({ path: shot });
  out({ ready: true });
} catch (e) {
  out({ ready: false, error: String(e?.message ?? e).split('\n')[0] });
  await browser?.close();
  process.exit(1);
}
process.stdin.resume();
process.stdin.on('end', async () => {
  await browser.close();
  process.exit(0);
});
