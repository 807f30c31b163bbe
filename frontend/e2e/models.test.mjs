// Settings → Models against the real Go core. No model can run on these
// machines, so the endpoint is a stand-in: a loopback HTTP server that
// answers GET /v1/models as an OpenAI-compatible server does, and refuses a
// request without the right API key with HTTP 401.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { outputDir, startApp, openSettingsAt } from './helpers.mjs';

const apiKey = 'sk-e2e-secret-7f3a9c';

function standIn() {
  const srv = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/v1/models') {
      res.writeHead(404).end();
      return;
    }
    res.setHeader('Content-Type', 'application/json');
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      res.writeHead(401).end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }));
      return;
    }
    res.writeHead(200).end(
      JSON.stringify({
        object: 'list',
        data: [
          { id: 'qwen3:8b', object: 'model', created: 0, owned_by: 'stand-in' },
          { id: 'deepseek-r1:7b', object: 'model', created: 0, owned_by: 'stand-in' },
        ],
      }),
    );
  });
  return new Promise((res) => srv.listen(0, '127.0.0.1', () => res(srv)));
}

describe('Settings → Models', () => {
  let app;
  let endpoint;
  let baseUrl;
  before(async () => {
    endpoint = await standIn();
    baseUrl = `http://127.0.0.1:${endpoint.address().port}/v1`;
    app = await startApp();
  });
  after(async () => {
    await app?.close();
    endpoint?.close();
  });

  it('adds a provider: the preset fills the base URL, Test needs the key and then lists the models', async () => {
    const { page } = app;
    await openSettingsAt(page, 'Models');
    await page.getByRole('button', { name: 'Add a provider' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a model provider' });

    await dialog.getByLabel('Preset').selectOption('ollama');
    assert.equal(await dialog.getByLabel('Base URL').inputValue(), 'http://127.0.0.1:11434/v1');
    assert.equal(await dialog.getByLabel('Name', { exact: true }).inputValue(), 'Ollama');

    await dialog.getByLabel('Name', { exact: true }).fill('Stand-in');
    await dialog.getByLabel('Base URL').fill(baseUrl);
    await dialog.getByRole('button', { name: 'Test' }).click();
    await dialog.getByRole('alert').getByText('Ollama needs an API key, and none is set.').waitFor();

    await dialog.getByLabel(/API key/).fill('sk-wrong');
    await dialog.getByRole('button', { name: 'Test' }).click();
    await dialog.getByRole('alert').getByText('The API key was refused by Ollama.').waitFor();

    await dialog.getByLabel(/API key/).fill(apiKey);
    await dialog.getByRole('button', { name: 'Test' }).click();
    const offered = dialog.getByLabel('The provider offers 2 models');
    await offered.waitFor();
    await offered.selectOption('deepseek-r1:7b');
    assert.equal(await dialog.getByLabel('Model', { exact: true }).inputValue(), 'deepseek-r1:7b');
    // Go has checked the input: no field has an error left and Save is enabled.
    await dialog.locator('button[type="submit"]:not([disabled])').waitFor();
    assert.equal(await dialog.locator('.field-error').count(), 0);
    await page.screenshot({ path: join(outputDir, 'e2e-models-editor.png'), fullPage: true });

    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const card = page.getByRole('listitem', { name: 'Stand-in', exact: true });
    await card.waitFor();
    const text = await card.innerText();
    assert.match(text, /deepseek-r1:7b/);
    assert.match(text, /Default/, 'the first provider becomes the default');
    assert.ok(!text.includes(apiKey), 'the list never shows the whole key');
    assert.ok(!(await page.content()).includes(apiKey), 'the page holds no copy of the key');
    await page.screenshot({ path: join(outputDir, 'e2e-models-list.png'), fullPage: true });
  });

  it('Test on edit uses the saved key, which the editor never shows', async () => {
    const { page } = app;
    const card = page.getByRole('listitem', { name: 'Stand-in', exact: true });
    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Stand-in' });
    assert.equal(await dialog.getByLabel(/API key/).inputValue(), '');
    await dialog.getByRole('button', { name: 'Test' }).click();
    await dialog.getByLabel('The provider offers 2 models').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('Remove asks first, then the provider and its key are gone', async () => {
    const { page, dataDir } = app;
    const card = page.getByRole('listitem', { name: 'Stand-in', exact: true });
    await card.getByRole('button', { name: 'Remove' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Stand-in?' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await card.waitFor({ state: 'detached' });
    await page.getByText(/No model providers yet/).waitFor();
    const list = await page.evaluate(async () => (await window.go.app.ProvidersService.List()).providers);
    assert.deepEqual(list, []);
    // Wherever the key was kept (keyring or data file), the data file has no trace of it.
    const files = await import('node:fs/promises').then((fs) => fs.readdir(dataDir));
    for (const f of files) {
      const bytes = await readFile(join(dataDir, f)).catch(() => Buffer.alloc(0));
      assert.ok(!bytes.includes(apiKey), `${f} still holds the key`);
    }
    assert.deepEqual(app.problems, []);
  });
});
