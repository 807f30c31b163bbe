// The window with the keyboard alone, against the real Go core (issue 12):
// Tab walks every pane (Servers with the welcome above it, Chat without a
// model and with a conversation, Tools with a tool chosen and its result,
// History with a row opened, Settings) and at every stop the focused element
// is on screen, shows a focus ring that it does not show unfocused (in the
// computed style, and in the pixels along each of its sides, so that a ring
// cut off by a scrolling box or hidden under a neighbour counts as missing),
// and comes after the one before it in reading order: the sidebar first, then
// the pane top to bottom, a column to the right after the column to its left.
// A first test plants each of those faults and checks the walk reports it.
// Ctrl+1 … Ctrl+5 open the panes and put the focus where Tab goes on inside
// the pane; Ctrl+W closes a dialog and nothing else; Ctrl+Q quits Gatehouse.
// focus-ring.png, focus-ring-dark.png and focus-ring-sidebar.png (1100×760)
// show the ring for the closing note.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { openTool, outputDir, pressCall, startApp, waitForState } from './helpers.mjs';
import { addStandInProvider, startStandInModel } from './standin-model.mjs';

const sidebar = ['Chat', 'Servers', 'Tools', 'History', 'Settings'];
const navButton = (page, name) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: new RegExp(`^${name}\\b`) });

/**
 * What the focused element is and how it looks, read in the page: a short
 * description, its box in the layout (the viewport's coordinates plus every
 * scroll offset above it, so that scrolling does not move it), the part of it
 * left visible by the viewport and every ancestor that clips, its opacity and
 * visibility, and its outline and box-shadow focused and unfocused. The
 * unfocused look is read by blurring it for a moment; it gets the focus back
 * without scrolling, so that the next Tab goes on from it.
 */
function inspectFocused() {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  const name =
    el.getAttribute('aria-label') ||
    (el.labels && el.labels[0]?.innerText) ||
    el.getAttribute('title') ||
    el.getAttribute('placeholder') ||
    el.innerText ||
    el.getAttribute('name') ||
    '';
  const role = el.getAttribute('role') || el.getAttribute('type') || '';
  const what = `<${el.tagName.toLowerCase()}${role ? ` ${role}` : ''}> "${String(name).trim().replace(/\s+/g, ' ').slice(0, 50)}"`;

  const rect = el.getBoundingClientRect();
  let visible = { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
  const clip = (r) => {
    visible = {
      left: Math.max(visible.left, r.left),
      top: Math.max(visible.top, r.top),
      right: Math.min(visible.right, r.right),
      bottom: Math.min(visible.bottom, r.bottom),
    };
  };
  clip({ left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight });
  // Where it sits for reading: in each box that scrolls (or clips) around it, innermost first,
  // the box of the element or of the inner scroller holding it, in that scroller's content.
  window.__scrollers = window.__scrollers ?? new WeakMap();
  let nextID = window.__scrollerCount ?? 0;
  const place = [];
  let item = rect;
  let opacity = 1;
  let hidden = '';
  for (let a = el; a && a !== document.documentElement; a = a.parentElement) {
    const cs = getComputedStyle(a);
    opacity *= Number(cs.opacity);
    if (cs.visibility !== 'visible') hidden = `visibility: ${cs.visibility}`;
    if (cs.display === 'none') hidden = 'display: none';
    if (a !== el && cs.overflow !== 'visible') {
      const r = a.getBoundingClientRect();
      clip(r);
      if (!window.__scrollers.has(a)) window.__scrollers.set(a, nextID++);
      const dx = a.scrollLeft - r.left;
      const dy = a.scrollTop - r.top;
      place.push({ in: window.__scrollers.get(a), left: item.left + dx, top: item.top + dy, right: item.right + dx, bottom: item.bottom + dy });
      item = r;
    }
  }
  window.__scrollerCount = nextID;
  place.push({ in: 'page', left: item.left + scrollX, top: item.top + scrollY, right: item.right + scrollX, bottom: item.bottom + scrollY });
  const ring = () => {
    const cs = getComputedStyle(el);
    return { outline: `${cs.outlineStyle} ${cs.outlineWidth} ${cs.outlineColor}`, shadow: cs.boxShadow, outlineStyle: cs.outlineStyle, outlineWidth: cs.outlineWidth };
  };
  const focused = ring();
  const focusVisible = el.matches(':focus-visible');
  return {
    what,
    tag: el.tagName.toLowerCase(),
    inSidebar: !!el.closest('nav.sidebar'),
    inMain: !!el.closest('main'),
    box: { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom, width: rect.width, height: rect.height },
    place,
    visible: { ...visible, width: visible.right - visible.left, height: visible.bottom - visible.top },
    opacity,
    hidden,
    focused,
    focusVisible,
  };
}

/** A screenshot's pixels: Chromium writes 8-bit RGB or RGBA PNGs, not interlaced. */
function pixels(png) {
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      channels = { 2: 3, 6: 4 }[colour];
      if (depth !== 8 || !channels || interlace) throw new Error(`a screenshot PNG this test does not read (depth ${depth}, colour ${colour})`);
    } else if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? out[y * stride + i - channels] : 0;
      const b = y > 0 ? out[(y - 1) * stride + i] : 0;
      const c = i >= channels && y > 0 ? out[(y - 1) * stride + i - channels] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predict = [0, a, b, (a + b) >> 1, paeth][filter];
      out[y * stride + i] = (line[i] + predict) & 0xff;
    }
  }
  return { width, height, channels, out };
}

/** The share of columns (along 'x') or rows (along 'y') of two same-sized screenshots in which some pixel differs. */
function changedAlong(pngA, pngB, along) {
  const a = pixels(pngA);
  const b = pixels(pngB);
  const lines = along === 'x' ? a.width : a.height;
  let changed = 0;
  for (let i = 0; i < lines; i++) {
    let differs = false;
    const across = along === 'x' ? a.height : a.width;
    for (let j = 0; j < across && !differs; j++) {
      const [x, y] = along === 'x' ? [i, j] : [j, i];
      const at = (y * a.width + x) * a.channels;
      for (let k = 0; k < 3; k++) if (a.out[at + k] !== b.out[at + k]) differs = true;
    }
    if (differs) changed++;
  }
  return changed / lines;
}

/**
 * The strips of the window where the focused element's edges are, one per
 * side whose edge is in sight: from 4 px inside the edge to 5 px outside, so
 * that a ring drawn inside or outside the edge is in it. A side cut off by
 * the window or by what scrolls around the element has no strip.
 */
function edgeStrips(s, viewport) {
  const { box, visible } = s;
  const inSight = (v, lo, hi) => v >= lo - 0.5 && v <= hi + 0.5;
  const strips = {};
  const add = (side, x0, y0, x1, y1) => {
    const x = Math.max(0, Math.floor(x0));
    const y = Math.max(0, Math.floor(y0));
    const width = Math.min(viewport.width, Math.ceil(x1)) - x;
    const height = Math.min(viewport.height, Math.ceil(y1)) - y;
    if (width >= 2 && height >= 2) strips[side] = { x, y, width, height };
  };
  if (inSight(box.top, visible.top, visible.bottom)) add('top', visible.left - 5, box.top - 5, visible.right + 5, box.top + 4);
  if (inSight(box.bottom, visible.top, visible.bottom)) add('bottom', visible.left - 5, box.bottom - 4, visible.right + 5, box.bottom + 5);
  if (inSight(box.left, visible.left, visible.right)) add('left', box.left - 5, visible.top - 5, box.left + 4, visible.bottom + 5);
  if (inSight(box.right, visible.left, visible.right)) add('right', box.right - 4, visible.top - 5, box.right + 5, visible.bottom + 5);
  return strips;
}

/**
 * The focused element's look without the focus, and the sides where the
 * pixels show no difference between focused and unfocused (a ring cut off
 * there). The element gets the focus back, without scrolling.
 */
async function unfocusedLook(page, strips) {
  const shoot = async () => {
    const shots = {};
    for (const [side, clip] of Object.entries(strips)) shots[side] = await page.screenshot({ clip });
    return shots;
  };
  const focused = await shoot();
  const look = await page.evaluate(() => {
    const el = document.activeElement;
    window.__stop = el;
    el.blur();
    const cs = getComputedStyle(el);
    return { outline: `${cs.outlineStyle} ${cs.outlineWidth} ${cs.outlineColor}`, shadow: cs.boxShadow };
  });
  const unfocused = await shoot();
  const back = await page.evaluate(() => {
    window.__stop.focus({ preventScroll: true });
    return document.activeElement === window.__stop && window.__stop.matches(':focus-visible');
  });
  // A ring along a side changes the pixels along most of it; a few changed pixels at a corner are not a ring.
  const unchanged = Object.keys(strips).filter((side) => {
    const along = side === 'top' || side === 'bottom' ? 'x' : 'y';
    return changedAlong(focused[side], unfocused[side], along) < 0.5;
  });
  return { look, unchanged, back };
}

/**
 * Whether stop b comes after stop a in reading order, compared in the
 * innermost box that scrolls around both: further down, or to the right on
 * the same line, or in a column to the right.
 */
function readsAfter(sa, sb) {
  const a = sa.place.find((p) => sb.place.some((q) => q.in === p.in));
  const b = sb.place.find((q) => q.in === a.in);
  const slack = 2;
  if (b.top >= a.bottom - slack) return true; // the next line, or further down
  const sameLine = b.top < a.bottom && b.bottom > a.top;
  if (sameLine && b.left >= a.left - slack) return true;
  return b.left >= a.right - slack; // a column to the right, which starts higher up
}

/**
 * Tabs from the start of the page until the focus comes round again, and
 * checks every stop. Returns the stops and the problems found, one sentence each.
 */
async function walk(page, label) {
  // Start where a person would: a click on the window's name, above the sidebar.
  await page.locator('nav.sidebar .brand').click();
  const stops = [];
  const problems = [];
  for (let i = 0; i < 300; i++) {
    await page.keyboard.press('Tab');
    const s = await page.evaluate(inspectFocused);
    if (!s) break; // past the last stop: the focus left the page
    if (stops.length && s.what === stops[0].what && s.box.top === stops[0].box.top) break;
    stops.push(s);
    const where = `${label}, stop ${stops.length} ${s.what}`;
    if (s.box.width < 1 || s.box.height < 1) problems.push(`${where}: has no size (${s.box.width}×${s.box.height})`);
    else if (s.visible.width < Math.min(6, s.box.width) || s.visible.height < Math.min(6, s.box.height))
      problems.push(`${where}: is out of sight after the focus scrolled to it (visible ${Math.round(s.visible.width)}×${Math.round(s.visible.height)})`);
    if (s.opacity < 0.5) problems.push(`${where}: is transparent (opacity ${s.opacity})`);
    if (s.hidden) problems.push(`${where}: is hidden (${s.hidden})`);

    const strips = edgeStrips(s, page.viewportSize());
    const { look, unchanged, back } = await unfocusedLook(page, strips);
    const ringShown = (s.focused.outlineStyle !== 'none' && parseFloat(s.focused.outlineWidth) > 0) || s.focused.shadow !== 'none';
    const ringChanges = s.focused.outline !== look.outline || s.focused.shadow !== look.shadow;
    if (!s.focusVisible) problems.push(`${where}: does not match :focus-visible after Tab`);
    if (!ringShown || !ringChanges) problems.push(`${where}: shows no focus ring (outline ${s.focused.outline}, box-shadow ${s.focused.shadow})`);
    else if (unchanged.length) problems.push(`${where}: its focus ring is cut off at the ${unchanged.join(', ')} (by what holds it?)`);
    if (!back) problems.push(`${where}: did not take the focus back (the walk stops here)`);

    if (stops.length > 1) {
      const a = stops[stops.length - 2];
      if (a.inMain && s.inSidebar) problems.push(`${where}: the sidebar comes after the pane`);
      else if (a.inMain && s.inMain && !readsAfter(a, s))
        problems.push(`${where}: comes before ${a.what} in reading order (at ${Math.round(s.box.left)},${Math.round(s.box.top)} after ${Math.round(a.box.left)},${Math.round(a.box.top)})`);
    }
    if (!back) break;
  }
  const names = stops.filter((s) => s.inSidebar).map((s) => s.what);
  if (stops.slice(0, 5).some((s) => !s.inSidebar) || names.length !== 5)
    problems.push(`${label}: the walk does not start with the five sidebar items: ${stops.slice(0, 6).map((s) => s.what).join(', ')}`);
  if (!stops.some((s) => s.inMain)) problems.push(`${label}: Tab never reaches the pane`);
  return { stops, problems };
}

describe('the keyboard', () => {
  let app;
  let model;
  before(async () => {
    // A model that answers with a link and a code block: the stops a conversation has.
    model = await startStandInModel({
      reply: () => ({ text: 'See [the specification](https://modelcontextprotocol.io/specification) and run:\n\n```sh\necho hi\n```\n' }),
    });
    app = await startApp();
    await waitForState(app.page, 'Demo server', 'connected');
    // The caret blinks: hide it, so that the pixels of a field differ only by its ring.
    await app.page.addStyleTag({ content: '* { caret-color: transparent !important; }' });
  });
  after(async () => {
    await app?.close();
    await model?.close();
  });

  it('the walk reports a stop without a ring, a clipped ring, a transparent stop, one out of sight and one out of reading order', async () => {
    const { page } = app;
    // Rough edges planted at the top of the Servers pane, each a button the walk must flag.
    await page.evaluate(() => {
      const box = document.createElement('div');
      box.id = 'planted';
      box.style.cssText = 'display: flex; flex-direction: column; align-items: flex-start; gap: 12px; margin-bottom: 12px';
      box.innerHTML = `
        <button>Fine</button>
        <button style="outline: none">No ring</button>
        <div style="overflow: hidden; align-self: stretch"><button style="display: block; width: 100%; margin: 0">Ring clipped</button></div>
        <button style="opacity: 0">Transparent</button>
        <div style="overflow: hidden; height: 0"><button>Out of sight</button></div>
        <div style="display: flex; flex-direction: column-reverse; gap: 12px"><button>Shown second</button><button>Shown first</button></div>`;
      document.querySelector('main').prepend(box);
    });
    try {
      const { problems } = await walk(page, 'planted');
      const flagged = (name, what) => problems.some((p) => p.includes(`"${name}"`) && p.includes(what));
      assert.ok(!problems.some((p) => p.includes('"Fine"')), problems.join('\n'));
      assert.ok(flagged('No ring', 'shows no focus ring'), problems.join('\n'));
      assert.ok(flagged('Ring clipped', 'focus ring is cut off at the top, bottom, left, right'), problems.join('\n'));
      assert.ok(flagged('Transparent', 'is transparent'), problems.join('\n'));
      assert.ok(flagged('Out of sight', 'out of sight'), problems.join('\n'));
      // Tab reaches the lower one first; the upper one is then out of reading order.
      assert.ok(flagged('Shown first', 'in reading order'), problems.join('\n'));
    } finally {
      await page.evaluate(() => document.getElementById('planted')?.remove());
    }
  });

  // Each pane in the state a daily user meets it; Servers starts with the welcome above the list.
  const panes = [
    { label: 'Servers with the welcome', open: async () => {} },
    { label: 'Chat with no model provider', open: async (page) => navButton(page, 'Chat').click() },
    {
      label: 'Chat with a conversation',
      open: async (page) => {
        await addStandInProvider(page, model);
        await navButton(page, 'Servers').click();
        await navButton(page, 'Chat').click();
        await page.getByRole('button', { name: 'New conversation', exact: true }).first().click();
        const box = page.getByLabel('Message', { exact: true });
        await box.fill('Where is the spec?');
        await box.press('Enter');
        await page.getByRole('button', { name: /the specification/ }).waitFor({ timeout: 30_000 });
        await page.getByText('The model is answering…').waitFor({ state: 'detached', timeout: 30_000 });
      },
    },
    {
      label: 'Tools with echo chosen and its result',
      open: async (page) => {
        await openTool(page, 'Demo server', 'echo');
        await page.getByRole('textbox', { name: /message/i }).first().fill('hello');
        await pressCall(page);
      },
    },
    {
      label: 'History with a row opened',
      open: async (page) => {
        await navButton(page, 'History').click();
        const row = page.locator('table.history > tbody > tr:not(.details)').first();
        await row.waitFor();
        await row.getByRole('button').first().click();
        await page.locator('tr.details').waitFor();
      },
    },
    { label: 'Settings', open: async (page) => navButton(page, 'Settings').click() },
  ];

  for (const pane of panes) {
    it(`Tab walks ${pane.label}: every stop is visible, shows its focus ring, in reading order`, async () => {
      const { page } = app;
      await pane.open(page);
      await page.waitForTimeout(300);
      const { stops, problems } = await walk(page, pane.label);
      console.info(`${pane.label}: ${stops.length} stops\n  ${stops.map((s) => s.what).join('\n  ')}`);
      assert.deepEqual(problems, []);
    });
  }

  it('Ctrl+1 … Ctrl+5 open the panes and put the focus where Tab goes on inside the pane', async () => {
    const { page } = app;
    const headings = { Chat: /New conversation/, Servers: /Welcome to Gatehouse|Servers/, Tools: /Tools/, History: /History/, Settings: /Settings/ };
    // From Servers, each pane in turn, and Servers last (from Settings).
    await navButton(page, 'Servers').click();
    for (const i of [0, 2, 3, 4, 1]) {
      const name = sidebar[i];
      await page.keyboard.press(`Control+${i + 1}`);
      await assert.doesNotReject(
        page.waitForFunction((n) => document.querySelector('nav.sidebar [aria-current="page"]')?.textContent?.trim().startsWith(n), name, { timeout: 5000 }),
        `Ctrl+${i + 1} did not open ${name}`,
      );
      await page.waitForFunction(() => !!document.activeElement?.closest('main'), null, { timeout: 5000 });
      const focus = await page.evaluate(inspectFocused);
      assert.ok(focus.inMain, `after Ctrl+${i + 1} the focus is not in the ${name} pane: ${focus?.what}`);
      assert.match(focus.what, headings[name], `after Ctrl+${i + 1} the focus is on ${focus.what}`);
      assert.ok(focus.focused.outlineStyle !== 'none' && parseFloat(focus.focused.outlineWidth) >= 2, `after Ctrl+${i + 1} ${focus.what} shows no ring: ${focus.focused.outline}`);
      // Tab goes on inside the pane, from its top.
      await page.keyboard.press('Tab');
      const next = await page.evaluate(inspectFocused);
      assert.ok(next?.inMain, `Tab after Ctrl+${i + 1} left the ${name} pane: ${next?.what}`);
      assert.ok(next.box.top >= focus.box.top - 2 || next.box.left >= focus.box.right, `Tab after Ctrl+${i + 1} went up to ${next.what}`);
    }
    // The tooltips say the shortcut.
    assert.equal(await navButton(page, 'Tools').getAttribute('title'), 'Tools (Ctrl+3)');
  });

  it('pane shortcuts wait while a dialog is open, and Ctrl+W closes it as Escape does', async () => {
    const { page } = app;
    await navButton(page, 'Servers').click();
    await page.getByRole('button', { name: 'Add server' }).first().click();
    const dialog = page.getByRole('dialog', { name: /Add a server|Add server/ });
    await dialog.waitFor();
    await page.keyboard.press('Control+3');
    await page.waitForTimeout(200);
    assert.equal(await navButton(page, 'Servers').getAttribute('aria-current'), 'page', 'Ctrl+3 switched panes behind the dialog');
    await page.keyboard.press('Control+w');
    await dialog.waitFor({ state: 'detached', timeout: 5000 });
    // With no dialog, Ctrl+W does nothing at all.
    await page.keyboard.press('Control+w');
    await page.waitForTimeout(200);
    assert.equal(await navButton(page, 'Servers').getAttribute('aria-current'), 'page');
    assert.ok(await page.getByRole('heading', { level: 1, name: 'Servers' }).isVisible());
  });

  it('the focus ring in light and dark at 1100×760', async () => {
    const { page } = app;
    await navButton(page, 'Servers').click();
    await page.locator('nav.sidebar .brand').click();
    // The sidebar's Tools item, then on into the welcome: a ring on the sidebar and one on a button in the pane.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    await page.screenshot({ path: join(outputDir, 'focus-ring-sidebar.png') });
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    await page.screenshot({ path: join(outputDir, 'focus-ring.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(outputDir, 'focus-ring-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('Ctrl+Q quits Gatehouse', async () => {
    const { page, url } = app;
    assert.deepEqual(app.problems, []);
    await page.keyboard.press('Control+q');
    const deadline = Date.now() + 20_000;
    let serving = true;
    while (serving && Date.now() < deadline) {
      serving = await fetch(url).then(
        () => true,
        () => false,
      );
      if (serving) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(serving, false, 'Gatehouse still runs 20 s after Ctrl+Q');
  });
});
