// What tool results look like to a person, against the demo server that
// Gatehouse ships: numbers typed in a generated form, arguments refused by
// the tool's input schema before anything is sent, an error result,
// structured content as a tree, a resource link shown as text, and where the
// app keeps its data.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { callTool, openTool, outputDir, pressCall, startApp, waitForState, openSettingsAt } from './helpers.mjs';

const field = (page, name) => page.getByRole('tabpanel', { name: 'Form' }).getByLabel(new RegExp(`^${name}(\\s|\\*|$)`));

describe('tool results from the demo server', () => {
  let app;
  before(async () => {
    app = await startApp();
    await waitForState(app.page, 'Demo server', 'connected');
  });
  after(async () => {
    await app?.close();
  });

  it('numbers typed in the form are sent as numbers', async () => {
    const { page } = app;
    await openTool(page, 'Demo server', 'add');
    await field(page, 'a').fill('2');
    await field(page, 'b').fill('3.5');
    const result = await pressCall(page);
    await result.getByText('2 + 3.5 = 5.5').waitFor();
  });

  it('an error result is marked as an error', async () => {
    const { page } = app;
    const result = await callTool(page, 'Demo server', 'divide', { a: 1, b: 0 });
    assert.equal(await result.getAttribute('aria-label'), 'Error result');
    await result.getByText('cannot divide by zero').waitFor();
    assert.match(await result.innerText(), /Error/);
  });

  it('structured content is a tree', async () => {
    const { page } = app;
    await openTool(page, 'Demo server', 'forecast');
    await field(page, 'city').fill('Oslo');
    await field(page, 'days').fill('2');
    const result = await pressCall(page);
    const tree = result.locator('details.structured');
    await tree.getByText('"Oslo"').waitFor();
    assert.equal(await tree.getByText('[2 items]').count(), 1);
    assert.ok((await tree.locator('details').count()) >= 3);
    await page.screenshot({ path: join(outputDir, 'e2e-structured.png') });
  });

  it('arguments that do not fit the input schema are checked in Go and not sent', async () => {
    const { page } = app;
    await openTool(page, 'Demo server', 'forecast');
    // The pane kept what the last test typed for forecast: start from an empty city.
    await field(page, 'city').fill('');
    // The form: what each field accepts is written under it; a problem
    // shows beside its field once touched, and Call sends nothing.
    await field(page, 'days').fill('2.5');
    await page.getByRole('tabpanel', { name: 'Form' }).getByText('Enter a whole number.').waitFor();
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page.getByRole('tabpanel', { name: 'Form' }).getByText('This field is required.').waitFor();
    assert.equal(await field(page, 'city').getAttribute('aria-invalid'), 'true');
    // The JSON editor: Go judges the arguments as written.
    await page.getByRole('tab', { name: 'JSON' }).click();
    await page.getByLabel('Arguments (JSON object)').fill('{"city": "Oslo", "dayz": 2}');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page.getByText('dayz: This form has no such field.').waitFor();
    await page.getByText(/Nothing was sent/).waitFor();
    assert.equal(await page.getByRole('region', { name: /^(Result|Error result)$/ }).count(), 0);
    await page.screenshot({ path: join(outputDir, 'e2e-tool-arguments.png') });
  });

  it('a resource link is plain text, not a link', async () => {
    const { page } = app;
    const result = await callTool(page, 'Demo server', 'readme_link', {});
    await result.getByText('Demo server read-me').waitFor();
    await result.getByText('gatehouse-demo://readme').waitFor();
    assert.equal(await result.locator('a').count(), 0);
  });

  it('Settings shows the data folder in use', async () => {
    const { page, dataDir } = app;
    await openSettingsAt(page, 'About');
    await page.getByText(dataDir, { exact: true }).waitFor();
  });

  it('the page had no errors (CSP violations included)', () => {
    assert.deepEqual(app.problems, []);
  });
});
