// The chat's prompts and attachments (issue 14), end to end: the real core,
// the built-in demo server (its weekend_plan prompt with city suggestions,
// its read-me resource) and the stand-in model (standin-model.mjs: no model
// can run on these machines; it records every request it receives). The
// person types / in the composer, chooses the prompt, completes its city
// from the server's suggestions, inserts it, attaches the read-me, and sends:
// the stand-in model received the prompt's text, its embedded forecast and
// the read-me. After a reload the sent message still shows its chips.
// Screenshots at 800×600 in English and Chinese.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { outputDir, startApp, waitForState, openSettingsAt } from './helpers.mjs';
import { addStandInProvider, lastMessage, messageText, standInModelName, startStandInModel } from './standin-model.mjs';

const conversation = (page) => page.locator('section.conversation');
const composer = (page) => page.getByLabel('Message', { exact: true });
const shot = (page, name) => page.screenshot({ path: join(outputDir, `e2e-chatprompts-${name}.png`) });

describe('a prompt from the / menu and an attached resource, sent to the model', () => {
  let app;
  let model;

  before(async () => {
    model = await startStandInModel({ reply: () => ({ text: 'I have the prompt and the read-me.' }) });
    app = await startApp();
    const { page } = app;
    await page.setViewportSize({ width: 800, height: 600 });
    await addStandInProvider(page, model);
    await waitForState(page, 'Demo server', 'connected');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Chat' }).click();
  });
  after(async () => {
    await app?.close();
    await model?.close();
  });

  it('inserts weekend_plan with a completed city, attaches the read-me, and the model receives both', async () => {
    const { page } = app;
    const box = composer(page);
    await box.click();
    await box.pressSequentially('/week');
    const menu = page.getByRole('listbox');
    const option = menu.getByRole('option', { name: /Plan a weekend/ });
    await option.waitFor();
    assert.equal(await box.getAttribute('aria-activedescendant'), await option.getAttribute('id'));
    await shot(page, 'menu-en-800x600');
    await box.press('Enter');

    const dialog = page.getByRole('dialog', { name: 'Prompt: Plan a weekend' });
    await dialog.waitFor();
    const city = dialog.getByRole('textbox', { name: /City/ });
    await city.click();
    await city.pressSequentially('Os');
    const suggestions = dialog.getByRole('group', { name: 'Suggestions for City' });
    const oslo = suggestions.getByRole('button', { name: 'Oslo' });
    await oslo.waitFor();
    await suggestions.getByRole('button', { name: 'Paris' }).waitFor({ state: 'detached' }); // asked again with "Os"
    assert.equal(await suggestions.getByRole('button').count(), 1);
    await shot(page, 'arguments-en-800x600');
    await oslo.click();
    assert.equal(await city.inputValue(), 'Oslo');
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.waitForFunction(() => document.querySelector('.composer textarea')?.value.startsWith('Plan a relaxed weekend in Oslo'));
    const chips = page.locator('.composer').getByRole('list', { name: 'Attached resources' });
    await chips.getByText('gatehouse-demo://forecast/Oslo').waitFor();
    assert.equal(model.requests.length, 0, 'nothing went to the model before Send');

    await page.getByRole('button', { name: 'Attach' }).click();
    const picker = page.getByRole('dialog', { name: 'Attach a resource' });
    await picker.getByRole('button', { name: /Forecast of a city/ }).waitFor();
    await shot(page, 'picker-en-800x600');
    await picker.getByRole('searchbox', { name: 'Filter' }).fill('read-me');
    await picker.getByRole('button', { name: /Demo server read-me/ }).click();
    await picker.waitFor({ state: 'detached' });
    await chips.getByText('Demo server read-me').waitFor();
    assert.equal(await chips.getByRole('listitem').count(), 2);
    await shot(page, 'chips-en-800x600');

    const received = model.nextRequest();
    await box.press('Enter');
    const req = await received;
    const last = lastMessage(req);
    assert.equal(last.role, 'user');
    const text = messageText(last);
    assert.match(text, /^Plan a relaxed weekend in Oslo for me\. Here is the forecast:/);
    assert.match(text, /Attached resource "gatehouse-demo:\/\/forecast\/Oslo" \(gatehouse-demo:\/\/forecast\/Oslo\) from the server "Demo server":\n\{.*"city":"Oslo"/s);
    assert.match(text, /Attached resource "Demo server read-me" \(gatehouse-demo:\/\/readme\) from the server "Demo server":\n[\s\S]*weekend_plan/);

    // The sent message shows its chips, also after a reload.
    await conversation(page).locator('[aria-busy="true"]').waitFor({ state: 'detached', timeout: 30_000 });
    const sent = conversation(page).locator('.message.user').last().getByRole('list', { name: 'Attached resources' });
    assert.equal(await sent.getByRole('listitem').count(), 2);
    await page.reload();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('button', { name: 'Conversations' }).click().catch(() => {});
    await page.getByRole('complementary', { name: 'Conversations' }).getByRole('button', { name: /^Plan a relaxed weekend/ }).click();
    const again = conversation(page).locator('.message.user').last().getByRole('list', { name: 'Attached resources' });
    await again.getByText('Demo server read-me').waitFor();
    await again.getByText('Demo server', { exact: true }).first().waitFor();
    await shot(page, 'sent-en-800x600');
  });

  it('in Chinese at 800×600: the menu, the arguments and the chips', async () => {
    const { page } = app;
    await page.evaluate(() => window.go.app.SettingsService.SetLanguage('zh-CN'));
    await page.locator('html[lang="zh-CN"]').waitFor();
    const box = page.getByLabel('消息', { exact: true });
    await box.click();
    await box.pressSequentially('/');
    await page.getByRole('listbox').getByRole('option').first().waitFor();
    await shot(page, 'menu-zh-CN-800x600');
    await box.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('textbox').first().click();
    await dialog.getByRole('group').getByRole('button').first().waitFor();
    await shot(page, 'arguments-zh-CN-800x600');
    await dialog.getByRole('group').getByRole('button', { name: 'Beijing' }).click();
    await dialog.getByRole('button', { name: '插入' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: '附加' }).click();
    const picker = page.getByRole('dialog', { name: '附加资源' });
    await picker.getByRole('button', { name: /Demo logo/ }).click();
    await picker.waitFor({ state: 'detached' });
    await shot(page, 'chips-zh-CN-800x600');
    await page.evaluate(() => window.go.app.SettingsService.SetLanguage(''));
    assert.deepEqual(app.problems, []);
  });
});

// A provider the person sets up by hand (no preset knows its model) reads
// images only when they tick "The model reads images": then an attached
// image resource (the demo server's logo) reaches the model as an image;
// untick it, and the model gets a sentence in its place.
describe('an image attached for a provider set up by hand', () => {
  let app;
  let model;

  before(async () => {
    model = await startStandInModel({ reply: () => ({ text: 'A small logo.' }) });
    app = await startApp();
    await app.page.setViewportSize({ width: 800, height: 600 });
    await waitForState(app.page, 'Demo server', 'connected');
  });
  after(async () => {
    await app?.close();
    await model?.close();
  });

  const imageParts = (req) =>
    (req.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((p) => p?.type === 'image_url');

  async function sendWithLogo(page, text) {
    // The first provider makes every server connect again, to offer it sampling.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Servers' }).click();
    await waitForState(page, 'Demo server', 'connected');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('button', { name: 'Attach' }).click();
    const picker = page.getByRole('dialog', { name: 'Attach a resource' });
    await picker.getByRole('button', { name: /Demo logo/ }).click();
    await picker.waitFor({ state: 'detached' });
    const received = model.nextRequest();
    const box = composer(page);
    await box.fill(text);
    await box.press('Enter');
    const req = await received;
    await conversation(page).locator('[aria-busy="true"]').waitFor({ state: 'detached', timeout: 30_000 });
    return req;
  }

  async function editImages(page, dialog, tick, screenshot = '') {
    const box = dialog.getByRole('checkbox', { name: 'The model reads images' });
    await (tick ? box.check() : box.uncheck());
    if (screenshot) await shot(page, screenshot);
    await dialog.locator('button[type="submit"]:not([disabled])').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  it('ticked, the model receives the image; unticked, a sentence instead', async () => {
    const { page } = app;
    await openSettingsAt(page, 'Models');
    await page.getByRole('button', { name: 'Add a provider' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a model provider' });
    await dialog.getByLabel('Name', { exact: true }).fill('Vision stand-in');
    await dialog.getByLabel('Base URL').fill(model.baseUrl);
    await dialog.getByLabel('Model', { exact: true }).fill(standInModelName);
    await editImages(page, dialog, true, 'images-editor-en-800x600');

    const withImage = await sendWithLogo(page, 'What is this?');
    const parts = imageParts(withImage);
    assert.equal(parts.length, 1, `one image sent; the last message was ${JSON.stringify(lastMessage(withImage)).slice(0, 300)}`);
    assert.match(parts[0].image_url.url, /^data:image\/png;base64,iVBOR/);

    await openSettingsAt(page, 'Models');
    await page.getByRole('listitem', { name: 'Vision stand-in', exact: true }).getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Vision stand-in' });
    assert.equal(await edit.getByRole('checkbox', { name: 'The model reads images' }).isChecked(), true);
    await editImages(page, edit, false);

    const without = await sendWithLogo(page, 'And now?');
    assert.deepEqual(imageParts(without), [], 'no image goes to a model that reads none');
    assert.match(messageText(lastMessage(without)), /Demo logo/);
    assert.deepEqual(app.problems, []);
  });
});
