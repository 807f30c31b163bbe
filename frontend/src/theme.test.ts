// The light and dark themes meet WCAG AA: every pair of text (or control
// edge) and background that the UI draws, read from the variables in
// app.css for both themes. The pairs are listed once, in `pairs` below; a
// component that puts text on a new background adds its pair here.

import { describe, expect, it } from 'vitest';
import appCss from './app.css?raw';

// Every component's source, by file name: their <style> blocks use the theme.
const components: Record<string, string> = import.meta.glob(['./App.svelte', './components/**/*.svelte'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

type Theme = 'light' | 'dark';
const themes: Theme[] = ['light', 'dark'];

/** WCAG 2.2 AA: 4.5:1 for normal text (1.4.3), 3:1 for large text and for the edges of controls and the focus ring (1.4.11). */
const TEXT = 4.5;
const NON_TEXT = 3;

interface Pair {
  /** What the person sees. */
  use: string;
  /** The foreground variable: text, or a control's edge. */
  fg: string;
  /** The background variable right behind it. */
  bg: string;
  min: number;
}

// Every text/background pair the UI uses; the component that draws it in brackets.
const pairs: Pair[] = [
  { use: 'body text on the page', fg: '--text', bg: '--bg', min: TEXT },
  { use: 'body text in cards and dialogs', fg: '--text', bg: '--panel', min: TEXT },
  { use: 'sidebar sections', fg: '--text', bg: '--sidebar', min: TEXT },
  { use: 'text on a hovered button or a quiet box (consent message, tags)', fg: '--text', bg: '--subtle-bg', min: TEXT },
  { use: 'text typed into a field', fg: '--text', bg: '--input-bg', min: TEXT },
  { use: 'text typed into a field with an error', fg: '--text', bg: '--bad-input-bg', min: TEXT },
  { use: 'your own chat message (ChatMessages)', fg: '--text', bg: '--accent-bg', min: TEXT },
  { use: 'a match of the chat’s find box (ChatMessages)', fg: '--find-text', bg: '--find-bg', min: TEXT },
  { use: 'the current match of the chat’s find box', fg: '--find-text', bg: '--find-current-bg', min: TEXT },
  { use: 'text of an error result (ToolResult)', fg: '--text', bg: '--bad-bg', min: TEXT },
  { use: 'code and URLs', fg: '--text', bg: '--code-bg', min: TEXT },
  { use: 'muted text on the page', fg: '--muted', bg: '--bg', min: TEXT },
  { use: 'muted text in cards and hints', fg: '--muted', bg: '--panel', min: TEXT },
  { use: 'muted text in the sidebar', fg: '--muted', bg: '--sidebar', min: TEXT },
  { use: 'muted chip (disabled server) and table heads', fg: '--muted', bg: '--subtle-bg', min: TEXT },
  { use: 'code block language (CodeBlock)', fg: '--muted', bg: '--code-bg', min: TEXT },
  { use: 'links and the server name in the consent dialog', fg: '--accent', bg: '--panel', min: TEXT },
  { use: 'links on the page', fg: '--accent', bg: '--bg', min: TEXT },
  { use: 'the chosen section in the sidebar', fg: '--accent', bg: '--accent-bg', min: TEXT },
  { use: 'primary button', fg: '--on-accent', bg: '--accent', min: TEXT },
  { use: 'primary button, hovered', fg: '--on-accent', bg: '--accent-hover', min: TEXT },
  { use: 'danger button', fg: '--bad', bg: '--panel', min: TEXT },
  { use: 'warning box', fg: '--warn', bg: '--warn-bg', min: TEXT },
  { use: 'warning text on the page (chat)', fg: '--warn', bg: '--bg', min: TEXT },
  { use: 'warning text in a card (chat)', fg: '--warn', bg: '--panel', min: TEXT },
  { use: 'error box', fg: '--bad', bg: '--bad-bg', min: TEXT },
  { use: 'field error and error text', fg: '--bad', bg: '--panel', min: TEXT },
  { use: 'error text on the page', fg: '--bad', bg: '--bg', min: TEXT },
  { use: 'count of servers with an error (sidebar)', fg: '--on-bad', bg: '--bad', min: TEXT },
  { use: 'ok chip: connected, done', fg: '--ok', bg: '--ok-bg', min: TEXT },
  { use: 'ok text in a card: Saved., history outcome', fg: '--ok', bg: '--panel', min: TEXT },
  { use: 'wait chip: connecting, waiting', fg: '--wait', bg: '--wait-bg', min: TEXT },
  { use: 'bad chip: error, failed, denied', fg: '--bad', bg: '--bad-bg', min: TEXT },
  { use: 'needs sign-in chip', fg: '--warn', bg: '--warn-bg', min: TEXT },
  { use: 'the highlighted domain of a URL (LinkDisplay)', fg: '--text', bg: '--domain-bg', min: TEXT },
  { use: 'JSON key in a card', fg: '--key', bg: '--panel', min: TEXT },
  { use: 'JSON string in a card', fg: '--str', bg: '--panel', min: TEXT },
  { use: 'JSON number in a card', fg: '--num', bg: '--panel', min: TEXT },
  { use: 'JSON true/false/null in a card', fg: '--kw', bg: '--panel', min: TEXT },
  { use: 'JSON key in the consent dialog arguments', fg: '--key', bg: '--code-bg', min: TEXT },
  { use: 'JSON string in the consent dialog arguments', fg: '--str', bg: '--code-bg', min: TEXT },
  { use: 'JSON number in the consent dialog arguments', fg: '--num', bg: '--code-bg', min: TEXT },
  { use: 'JSON true/false/null in the consent dialog arguments', fg: '--kw', bg: '--code-bg', min: TEXT },
  { use: 'focus ring on the page', fg: '--focus', bg: '--bg', min: NON_TEXT },
  { use: 'focus ring in cards and dialogs', fg: '--focus', bg: '--panel', min: NON_TEXT },
  { use: 'focus ring in the sidebar', fg: '--focus', bg: '--sidebar', min: NON_TEXT },
  { use: 'focus ring in the welcome and on your own chat message', fg: '--focus', bg: '--accent-bg', min: NON_TEXT },
  { use: 'focus ring in a quiet box (notices, tags)', fg: '--focus', bg: '--subtle-bg', min: NON_TEXT },
  { use: 'focus ring in a code block (Copy) and the consent arguments', fg: '--focus', bg: '--code-bg', min: NON_TEXT },
  { use: 'focus ring in an error box', fg: '--focus', bg: '--bad-bg', min: NON_TEXT },
  { use: 'focus ring in a warning box', fg: '--focus', bg: '--warn-bg', min: NON_TEXT },
  { use: 'edge of a field in a card', fg: '--control-border', bg: '--panel', min: NON_TEXT },
  { use: 'edge of a field on the page', fg: '--control-border', bg: '--bg', min: NON_TEXT },
  { use: 'switch that is off, in a card', fg: '--control-border', bg: '--panel', min: NON_TEXT },
  { use: 'knob of a switch that is off', fg: '--knob', bg: '--control-border', min: NON_TEXT },
  { use: 'switch that is on, in a card', fg: '--accent', bg: '--panel', min: NON_TEXT },
  { use: 'knob of a switch that is on', fg: '--on-accent', bg: '--accent', min: NON_TEXT },
  // WCAG asks nothing of disabled controls; we keep their words readable at the large-text ratio.
  { use: 'disabled button (a disabled primary button looks the same)', fg: '--disabled-text', bg: '--panel', min: NON_TEXT },
  { use: 'disabled button without a frame, on the page', fg: '--disabled-text', bg: '--bg', min: NON_TEXT },
];

// --- Reading the theme ---------------------------------------------------------

/** The declarations of the first top-level `:root {…}` block. */
function rootDeclarations(css: string): Map<string, string> {
  const start = css.search(/^:root\s*\{/m);
  if (start < 0) throw new Error('app.css has no :root block');
  const open = css.indexOf('{', start);
  const close = css.indexOf('}', open);
  const body = css.slice(open + 1, close).replace(/\/\*[\s\S]*?\*\//g, '');
  const decls = new Map<string, string>();
  for (const decl of body.split(';')) {
    const colon = decl.indexOf(':');
    if (colon < 0) continue;
    decls.set(decl.slice(0, colon).trim(), decl.slice(colon + 1).trim().replace(/\s+/g, ' '));
  }
  return decls;
}

/** Splits "a, b" at its top-level comma. */
function splitArgs(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    else if (s[i] === ',' && depth === 0) {
      out.push(s.slice(from, i).trim());
      from = i + 1;
    }
  }
  out.push(s.slice(from).trim());
  return out;
}

/** A variable's value in one theme: light-dark(L, D) picks one side; var(--x) is followed. */
function resolve(decls: Map<string, string>, name: string, theme: Theme, seen: string[] = []): string {
  const raw = decls.get(name);
  if (raw === undefined) throw new Error(`app.css does not define ${name}${seen.length ? ` (used by ${seen.join(' ← ')})` : ''}`);
  if (seen.includes(name)) throw new Error(`${name} refers to itself`);
  let value = raw;
  const ld = /^light-dark\((.*)\)$/.exec(value);
  if (ld) {
    const args = splitArgs(ld[1]);
    if (args.length !== 2) throw new Error(`${name}: light-dark() needs two colours, has ${ld[1]}`);
    value = theme === 'light' ? args[0] : args[1];
  }
  const ref = /^var\((--[\w-]+)\)$/.exec(value);
  return ref ? resolve(decls, ref[1], theme, [...seen, name]) : value;
}

interface RGBA {
  r: number;
  g: number;
  b: number;
  a: number;
}

const named: Record<string, string> = { white: '#ffffff', black: '#000000' };

function parseColor(text: string): RGBA {
  const s = named[text] ?? text;
  let m = /^#([0-9a-f]{3,8})$/i.exec(s);
  if (m) {
    let hex = m[1];
    if (hex.length === 3 || hex.length === 4) hex = [...hex].map((c) => c + c).join('');
    if (hex.length !== 6 && hex.length !== 8) throw new Error(`not a colour: ${text}`);
    const n = (i: number) => parseInt(hex.slice(i, i + 2), 16);
    return { r: n(0), g: n(2), b: n(4), a: hex.length === 8 ? n(6) / 255 : 1 };
  }
  m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)\s*(?:[,/]\s*([\d.]+)(%?))?\s*\)$/.exec(s);
  if (m) {
    const alpha = m[4] === undefined ? 1 : Number(m[4]) / (m[5] ? 100 : 1);
    return { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]), a: alpha };
  }
  throw new Error(`not a colour this test reads: ${text}`);
}

/** fg painted over bg (fg may be translucent). */
function blend(fg: RGBA, bg: RGBA): RGBA {
  const mix = (f: number, b: number) => f * fg.a + b * (1 - fg.a);
  return { r: mix(fg.r, bg.r), g: mix(fg.g, bg.g), b: mix(fg.b, bg.b), a: 1 };
}

/** WCAG relative luminance. */
function luminance({ r, g, b }: RGBA): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: RGBA, b: RGBA): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

interface Checked extends Pair {
  theme: Theme;
  ratio: number;
}

/** Every pair's contrast in both themes of css. */
function checkTheme(css: string): Checked[] {
  const decls = rootDeclarations(css);
  const color = (name: string, theme: Theme) => parseColor(resolve(decls, name, theme));
  const out: Checked[] = [];
  for (const theme of themes) {
    // The page is opaque: translucent colours show the page through.
    const page = color('--bg', theme);
    for (const p of pairs) {
      const bg = blend(color(p.bg, theme), page);
      const fg = blend(color(p.fg, theme), bg);
      out.push({ ...p, theme, ratio: contrast(fg, bg) });
    }
  }
  return out;
}

const failures = (checked: Checked[]) => checked.filter((c) => c.ratio < c.min);
const describeFailure = (c: Checked) =>
  `${c.theme}: ${c.use} (${c.fg} on ${c.bg}) is ${c.ratio.toFixed(2)}:1, needs ${c.min}:1`;

// --- The tests -----------------------------------------------------------------

describe('the theme meets WCAG AA', () => {
  const checked = checkTheme(appCss);

  for (const theme of themes) {
    it(`every pair in the ${theme} theme`, () => {
      const mine = checked.filter((c) => c.theme === theme);
      expect(mine).toHaveLength(pairs.length);
      expect(failures(mine).map(describeFailure)).toEqual([]);
      const lowestText = mine.filter((c) => c.min === TEXT).sort((a, b) => a.ratio - b.ratio)[0];
      const lowestOther = mine.filter((c) => c.min === NON_TEXT).sort((a, b) => a.ratio - b.ratio)[0];
      console.info(
        `${theme}: lowest text contrast ${lowestText.ratio.toFixed(2)}:1 (${lowestText.use}); ` +
          `lowest non-text ${lowestOther.ratio.toFixed(2)}:1 (${lowestOther.use})`,
      );
    });
  }

  it.each([
    ['muted text made pale', '--muted', 'light-dark(#a9b0b8, #5a626c)', 'muted text in cards and hints'],
    ['warnings made pale', '--warn', 'light-dark(#d9a441, #8a6a30)', 'warning box'],
    ['a dark focus ring in the dark theme', '--focus', 'light-dark(#1f5fbf, #2b3a55)', 'focus ring in cards and dialogs'],
    ['the domain highlight made dark in the light theme', '--domain-bg', 'light-dark(#5a4a10, #4a3a12)', 'the highlighted domain of a URL (LinkDisplay)'],
  ])('fails when %s', (_, name, value, use) => {
    const poor = appCss.replace(new RegExp(`^(\\s*${name}:)[^;]*;`, 'm'), `$1 ${value};`);
    expect(poor).not.toBe(appCss);
    expect(failures(checkTheme(poor)).map((c) => c.use)).toContain(use);
  });

  it('every colour variable has a light and a dark value', () => {
    const decls = rootDeclarations(appCss);
    const single = [...decls].filter(([name, v]) => name.startsWith('--') && /#|rgb/.test(v) && !v.startsWith('light-dark('));
    expect(single.map(([name]) => name)).toEqual([]);
  });
});

describe('colours come from the theme', () => {
  const styles = Object.entries(components).map(
    ([file, text]) => [file, /<style>([\s\S]*?)<\/style>/.exec(text)?.[1] ?? ''] as const,
  );
  // app.css after its :root block: the rules that use the variables.
  const rules = appCss.slice(appCss.indexOf('}', appCss.search(/^:root\s*\{/m)) + 1);
  const sources: (readonly [string, string])[] = [['app.css rules', rules], ...styles];

  it('reads every component', () => {
    expect(Object.keys(components)).toContain('./components/consent/LinkDisplay.svelte');
    expect(styles.filter(([, css]) => css.includes('var(--')).length).toBeGreaterThan(20);
  });

  it('no style rule writes a colour of its own', () => {
    const literal = /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|oklch|lab)\(|:\s*(?:white|black|red|green|blue|gray|grey|yellow|orange)\b/gi;
    const found = sources.flatMap(([file, css]) =>
      [...css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(literal)].map((m) => `${file}: ${m[0]}`),
    );
    expect(found).toEqual([]);
  });

  it('every variable a rule uses is defined', () => {
    const decls = rootDeclarations(appCss);
    const missing = sources.flatMap(([file, css]) =>
      [...css.matchAll(/var\((--[\w-]+)/g)].filter((m) => !decls.has(m[1])).map((m) => `${file}: ${m[1]}`),
    );
    expect(missing).toEqual([]);
  });
});
