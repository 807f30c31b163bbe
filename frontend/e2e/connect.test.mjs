// Connect an app from Settings (issue 25), against the real core in a
// temporary home folder: Qwen Code's ~/.qwen/settings.json is previewed
// (nothing written), Cancel writes nothing, Confirm writes the gateway entry
// Go showed; a real MCP client (the TypeScript SDK's) then runs the entry as
// Qwen Code would, and Settings → Connected apps lists it by the name it
// claims and the program that launched it, as soon as it connects (Settings
// stays open), and counts its call; Undo puts the file back byte for byte,
// and after Qwen Code changed the file it takes out only Gatehouse's entry.
// Screenshots of the dialog in English (light and dark) and Chinese.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { outputDir, repoDir, startApp, waitForState, openSettingsAt } from './helpers.mjs';

const peers = createRequire(join(repoDir, 'testdata/peers/package.json'));
const { Client } = await import(peers.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(peers.resolve('@modelcontextprotocol/sdk/client/stdio.js'));

const original = `{
  // Qwen Code's own settings, with a comment the change must keep.
  "theme": "Default",
  "mcpServers": {
    "other": { "command": "node", "args": ["other.js"] }
  }
}
`;

const openSettings = async (page) => {
  await openSettingsAt(page, /^(Connected apps|已连接的应用)$/);
  await page.locator('#connect-title').waitFor();
};
const qwenRow = (page) => page.locator('[data-connect-app="qwen"]');

describe('Connect an app', () => {
  let app;
  let home;
  let file;
  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-home-'));
    await mkdir(join(home, '.qwen'));
    file = join(home, '.qwen', 'settings.json');
    await writeFile(file, original, { mode: 0o600 });
    app = await startApp({ env: { HOME: home } });
    await waitForState(app.page, 'Demo server', 'connected');
  });
  after(async () => {
    await app?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('previews the change, writes nothing on Cancel, in English and Chinese', async () => {
    const { page } = app;
    await openSettings(page);
    await qwenRow(page).getByText('Not connected').waitFor();
    assert.match(await qwenRow(page).innerText(), new RegExp(file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));

    await page.getByRole('button', { name: 'Connect Qwen Code' }).click();
    const dlg = page.getByRole('dialog', { name: 'Connect Qwen Code to Gatehouse' });
    const diff = dlg.getByTestId('connect-diff');
    await diff.waitFor();
    const shown = await diff.innerText();
    assert.match(shown, /^\+\s+"gatehouse": \{/m, shown);
    assert.match(shown, /"gateway"/);
    await dlg.getByText('Before writing, Gatehouse keeps a copy of the file as it is now in its data folder; Undo puts it back.').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel', 'the dialog starts on Cancel');
    await page.screenshot({ path: join(outputDir, 'e2e-connect-dialog-en-light.png') });
    // Settings → Theme is behind the modal dialog: the same choice through Go, which the page follows.
    await page.evaluate(() => window.go.app.ThemeService.Set('dark'));
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: 5000 });
    await page.screenshot({ path: join(outputDir, 'e2e-connect-dialog-en-dark.png') });
    await page.evaluate(() => window.go.app.ThemeService.Set('light'));
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: 5000 });

    await dlg.getByRole('button', { name: 'Cancel' }).click();
    await dlg.waitFor({ state: 'detached' });
    assert.equal(await readFile(file, 'utf8'), original, 'Cancel wrote nothing');

    // Settings → General is another section: the same choice through Go, which the page follows.
    await page.evaluate(() => window.go.app.SettingsService.SetLanguage('zh-CN'));
    await page.getByRole('button', { name: '连接 Qwen Code' }).click();
    const zh = page.getByRole('dialog', { name: '将 Qwen Code 连接到 Gatehouse' });
    await zh.getByTestId('connect-diff').waitFor();
    await zh.getByText('同时移除 Gatehouse 已有的服务器').waitFor();
    await page.screenshot({ path: join(outputDir, 'e2e-connect-dialog-zh-CN.png') });
    await page.keyboard.press('Escape');
    await zh.waitFor({ state: 'detached' });
    await page.evaluate(() => window.go.app.SettingsService.SetLanguage('en'));
    await page.getByRole('button', { name: 'Connect Qwen Code' }).waitFor();
    assert.equal(await readFile(file, 'utf8'), original, 'Escape wrote nothing');
  });

  it('Confirm writes the entry Go showed; the entry works for a real client, which Connected apps then lists', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Connect Qwen Code' }).click();
    const dlg = page.getByRole('dialog', { name: 'Connect Qwen Code to Gatehouse' });
    await dlg.getByTestId('connect-diff').waitFor();
    await dlg.getByRole('button', { name: 'Change the file' }).click();
    await dlg.waitFor({ state: 'detached' });
    const done = page.getByTestId('connect-done');
    await done.getByText(/^Connected Qwen Code: .* changed\. The copy of the file as it was: /).waitFor();
    await qwenRow(page).getByText('Connected', { exact: true }).waitFor();

    const now = await readFile(file, 'utf8');
    assert.notEqual(now, original);
    assert.match(now, /\/\/ Qwen Code's own settings, with a comment the change must keep\./);
    const parsed = JSON.parse(now.replace(/^\s*\/\/.*$/gm, ''));
    assert.equal(parsed.theme, 'Default');
    assert.deepEqual(parsed.mcpServers.other, { command: 'node', args: ['other.js'] });
    const entry = parsed.mcpServers.gatehouse;
    assert.equal(entry.command, await realpath(resolve(process.env.GATEHOUSE_DEV_BIN)));
    assert.deepEqual(entry.args, ['--data-dir', app.dataDir, 'gateway']);

    // The entry as Qwen Code would run it, by a client no one here wrote.
    const connect = async () => {
      const client = new Client({ name: 'e2e-sdk-client', version: '1.2.3' });
      const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: { ...process.env, HOME: home }, stderr: 'pipe' });
      await client.connect(transport);
      return client;
    };
    let client = await connect();
    let echo;
    try {
      const { tools } = await client.listTools();
      echo = tools.find((t) => t.name.endsWith('echo'))?.name;
      assert.ok(echo, `the gateway offers the demo server’s echo: ${tools.map((t) => t.name)}`);
    } finally {
      await client.close();
    }

    // Settings stayed open: Connected apps shows the app that just used the gateway, without a reload.
    const card = page.getByRole('listitem', { name: 'e2e-sdk-client' });
    await card.waitFor({ timeout: 5000 });
    const text = await card.innerText();
    assert.match(text, /1\.2\.3/);
    assert.ok(text.includes(await realpath(process.execPath)), `the launcher is the test's node: ${text}`);
    await card.getByRole('checkbox', { name: 'Demo server' }).waitFor();
    assert.equal(await card.getByRole('checkbox', { name: 'Demo server' }).isChecked(), true);

    // Its own allow of echo (the chat asks): a call from it then runs without a question.
    await card.getByText('Its own tool permissions').click();
    const echoSetting = card.getByRole('combobox', { name: 'Setting for echo in e2e-sdk-client' });
    assert.equal(await echoSetting.locator('option:checked').innerText(), 'Same as the chat (Ask)');
    await echoSetting.selectOption('allow');
    await card
      .locator('li.tool')
      .filter({ has: page.getByRole('combobox', { name: 'Setting for echo in e2e-sdk-client' }) })
      .getByText('For this app now: Allow')
      .waitFor();
    client = await connect();
    try {
      const res = await client.callTool({ name: echo, arguments: { message: 'through the gateway' } }, undefined, { timeout: 20_000 });
      assert.ok(!res.isError && JSON.stringify(res.content).includes('through the gateway'), JSON.stringify(res));
    } finally {
      await client.close();
    }
    // Its call is counted live too (the gateway writes the counts every second).
    const calls = card.locator('dt', { hasText: 'Tool calls' }).locator('xpath=following-sibling::dd[1]');
    await page.waitForFunction((el) => el?.textContent === '1', await calls.elementHandle(), { timeout: 5000 });
    await card.screenshot({ path: join(outputDir, 'e2e-connected-app-card.png') });

    await card.getByRole('button', { name: 'Cut off' }).click();
    await card.getByText('Cut off: its requests are refused.').waitFor();
    // Settings → General → Theme is another section: the same choice through Go, which the page follows.
    await page.evaluate(() => window.go.app.ThemeService.Set('dark'));
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: 5000 });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outputDir, 'e2e-connected-apps-dark.png') });
    await page.evaluate(() => window.go.app.ThemeService.Set('light'));
    client = await connect().catch((e) => e);
    if (!(client instanceof Error)) {
      const listed = await client.listTools().catch((e) => e);
      await client.close();
      assert.ok(listed instanceof Error, `a cut-off app still lists tools: ${JSON.stringify(listed)}`);
      assert.match(String(listed.message), /cut e2e-sdk-client off/);
    } else {
      assert.match(String(client.message), /cut e2e-sdk-client off/);
    }
  });

  it('Undo, after its own Confirm, puts the file back byte for byte', async () => {
    const { page } = app;
    await qwenRow(page).getByRole('button', { name: 'Undo the last change to Qwen Code’s file' }).click();
    const dlg = page.getByRole('dialog', { name: 'Undo the change to Qwen Code’s file?' });
    await dlg.waitFor();
    assert.notEqual(await readFile(file, 'utf8'), original, 'nothing undone before Confirm');
    await dlg.getByRole('button', { name: 'Undo the change' }).click();
    await page.getByTestId('connect-done').getByText(`${file} is back as it was before Gatehouse changed it.`).waitFor();
    assert.equal(await readFile(file, 'utf8'), original);
    await qwenRow(page).getByText('Not connected').waitFor();
    assert.equal(await qwenRow(page).getByRole('button', { name: 'Undo the last change to Qwen Code’s file' }).count(), 0);
    assert.deepEqual(app.problems, []);
  });

  it('Undo after Qwen Code changed its file shows taking out only Gatehouse’s entry, and keeps the app’s change', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Connect Qwen Code' }).click();
    const dlg = page.getByRole('dialog', { name: 'Connect Qwen Code to Gatehouse' });
    await dlg.getByTestId('connect-diff').waitFor();
    await dlg.getByRole('button', { name: 'Change the file' }).click();
    await dlg.waitFor({ state: 'detached' });
    await qwenRow(page).getByText('Connected', { exact: true }).waitFor();
    // Qwen Code writes its own setting after Gatehouse's change.
    const written = await readFile(file, 'utf8');
    const edited = written.replace('"theme": "Default",', '"theme": "Default",\n  "vimMode": true,');
    assert.notEqual(edited, written);
    await writeFile(file, edited);

    await qwenRow(page).getByRole('button', { name: 'Undo the last change to Qwen Code’s file' }).click();
    const undo = page.getByRole('dialog', { name: 'Undo the change to Qwen Code’s file?' });
    const diff = undo.getByTestId('connect-undo-diff');
    await diff.waitFor();
    const shown = await diff.innerText();
    assert.match(shown, /^-\s+"gatehouse": \{/m, shown);
    assert.doesNotMatch(shown, /^[-+].*vimMode/m, 'the app’s own change is not part of the undo');
    await undo.getByText('Taken out: Gatehouse’s entry gatehouse').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel', 'the dialog starts on Cancel');
    await page.screenshot({ path: join(outputDir, 'e2e-connect-undo-part.png') });
    assert.equal(await readFile(file, 'utf8'), edited, 'nothing written before Confirm');
    await undo.getByRole('button', { name: 'Take out Gatehouse’s part' }).click();
    await undo.waitFor({ state: 'detached' });
    await page.getByTestId('connect-done').getByText(/^Gatehouse took its part out of .*\. The copy of the file as it was: /).waitFor();
    const now = await readFile(file, 'utf8');
    assert.equal(now, original.replace('"theme": "Default",', '"theme": "Default",\n  "vimMode": true,'), now);
    await qwenRow(page).getByText('Not connected').waitFor();
    assert.deepEqual(app.problems, []);
  });
});
