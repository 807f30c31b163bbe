// A conversation's settings in the window, against the real Go core. No
// model can run on these machines, so the model is a stand-in: a loopback
// HTTP server that speaks the OpenAI-compatible chat completions stream
// (SSE chunks, finish_reason, [DONE]) and lists its models, and records
// every chat request so the test can read what the next turn carried.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { outputDir, startApp } from './helpers.mjs';

function standIn() {
  const requests = [];
  const srv = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.setHeader('Content-Type', 'application/json');
      res.writeHead(200).end(
        JSON.stringify({
          object: 'list',
          data: ['small-model', 'big-model'].map((id) => ({ id, object: 'model', created: 0, owned_by: 'stand-in' })),
        }),
      );
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const parsed = JSON.parse(body);
      requests.push(parsed);
      const id = `chatcmpl-standin${requests.length}`;
      const chunk = (delta, finish = null) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: parsed.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      res.write(chunk({ role: 'assistant', content: '' }));
      res.write(chunk({ content: `Answer ${requests.length} ` }));
      res.write(chunk({ content: `from ${parsed.model}.` }));
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((res) => srv.listen(0, '127.0.0.1', () => res({ srv, requests })));
}

describe('Conversation settings', () => {
  let app;
  let model;
  before(async () => {
    model = await standIn();
    app = await startApp();
    const baseUrl = `http://127.0.0.1:${model.srv.address().port}/v1`;
    // Adding a provider in the window is the Settings → Models test's; here it is set up through the same Go call,
    // once the page has the bindings.
    await app.page.waitForFunction(() => window.go?.app?.ProvidersService?.Add);
    await app.page.evaluate(
      (url) =>
        window.go.app.ProvidersService.Add({
          name: 'Stand-in',
          kind: 'openai',
          preset: '',
          baseUrl: url,
          model: 'small-model',
          apiKey: '',
          clearKey: false,
          quirks: {},
        }),
      baseUrl,
    );
  });
  after(async () => {
    await app?.close();
    model?.srv.close();
  });

  it('a changed system prompt and model go with the next request', async () => {
    const { page } = app;
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Chat' }).click();
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.fill('第一个问题');
    await composer.press('Enter');
    await page.getByLabel('Model').getByText('Answer 1 from small-model.').waitFor();
    assert.equal(model.requests[0].model, 'small-model');
    assert.ok(!model.requests[0].messages.some((m) => m.role === 'system'), 'no system prompt was set yet');

    const header = page.getByText('Stand-in · small-model (default)');
    await header.waitFor();
    await page.getByRole('button', { name: 'Conversation settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Conversation settings' });
    // The endpoint's models are offered while typing.
    await dialog.locator('datalist option[value="big-model"]').waitFor({ state: 'attached' });
    await dialog.getByRole('combobox', { name: 'Model', exact: true }).fill('big-model');
    await dialog.getByRole('textbox', { name: 'System prompt' }).fill('Answer in one sentence. 用中文。');
    await page.screenshot({ path: join(outputDir, 'e2e-chat-settings.png'), fullPage: true });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Stand-in · big-model', { exact: true }).waitFor();

    await composer.fill('第二个问题');
    await composer.press('Enter');
    await page.getByLabel('Model').getByText('Answer 2 from big-model.').waitFor();
    const next = model.requests[1];
    assert.equal(next.model, 'big-model');
    assert.deepEqual(next.messages[0], { role: 'system', content: 'Answer in one sentence. 用中文。' });
    assert.deepEqual(
      next.messages.slice(1).map((m) => [m.role, m.content]),
      [
        ['user', '第一个问题'],
        ['assistant', 'Answer 1 from small-model.'],
        ['user', '第二个问题'],
      ],
    );

    // The settings are stored: Go reads them back.
    const [conv] = await page.evaluate(() => window.go.app.ChatService.Conversations(''));
    assert.equal(conv.model, 'big-model');
    assert.equal(conv.systemPrompt, 'Answer in one sentence. 用中文。');
    assert.deepEqual(app.problems, []);
  });
});
