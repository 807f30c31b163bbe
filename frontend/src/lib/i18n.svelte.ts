// The window's side of Gatehouse's one message catalogue (i18n/ in the
// repository): the same locale files Go embeds, imported here by Vite, so
// that there is no copy to drift. Every sentence the window shows comes
// from t(), tn(), <Tr> or msg() (a sentence Go sent as {key, args, text});
// server and model text never goes through here.
//
// The language is the person's choice in Settings, or for "System" the
// system's language as Go reads it from LANGUAGE, LC_ALL, LC_MESSAGES and LANG
// (Go needs no installed locale, while WebKitGTK's navigator.language falls
// back to English without one); until Go answers, and outside the app, the
// first of navigator.languages the catalogue has (English otherwise). It is
// $state: changing it re-renders every pane without a reload.
//
// Only English, the fallback for a key a language lacks, is part of the
// page's script; another language's catalogue is a chunk of its own, fetched
// when the window first wants it (main.ts waits for it before the first
// paint, so that the window opens in the person's language).

import en from '../../../i18n/locales/en.json';

/** A language the catalogue has. */
export type Lang = 'en' | 'zh-CN';
/** A key of the catalogue; svelte-check fails for a key that is not in en.json. */
export type MessageKey = keyof typeof en;
/** A placeholder's value: text, a number, or a sentence from Go. */
export type Arg = string | number | GoMessage;
export type Args = Record<string, Arg>;
/** A sentence from Go (i18n.Message): its key, arguments, and its text in Go's language. */
export type GoMessage = { key: string; args: Record<string, unknown>; text: string };

/** The catalogues loaded so far: English always. */
const catalogues: Partial<Record<Lang, Record<string, string>>> = { en };

/** Where each other language's catalogue comes from: Vite makes each import() a chunk of its own. */
const catalogueChunks: Record<Exclude<Lang, 'en'>, () => Promise<{ default: Record<string, string> }>> = {
  'zh-CN': () => import('../../../i18n/locales/zh-CN.json'),
};

/** The language a tag names ("zh-CN", "zh-Hant-TW", "en-GB"), or null when the catalogue has none. */
export function matchLanguage(tag: string): Lang | null {
  const lang = tag.toLowerCase().split(/[-_.@]/)[0];
  if (lang === 'zh') return 'zh-CN'; // Traditional too: its readers read Simplified more easily than English
  if (lang === 'en') return 'en';
  return null;
}

/** The system's language as the webview reports it (navigator.languages, from LANGUAGE, LC_ALL, LC_MESSAGES, LANG). */
export function systemLanguage(
  tags: readonly string[] = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]),
): Lang {
  for (const tag of tags) {
    const l = tag ? matchLanguage(tag) : null;
    if (l) return l;
  }
  return 'en';
}

class LanguageStore {
  /** The person's choice: '' follows the system, else 'en' or 'zh-CN'. */
  choice = $state('');
  /** The system's language. */
  system = $state<Lang>(systemLanguage());
  /** The language the person wants: their choice, else the system's. */
  wanted = $derived<Lang>(this.choice === 'en' || this.choice === 'zh-CN' ? this.choice : this.system);
  /** The languages whose catalogue has loaded. */
  loaded = $state<Lang[]>(['en']);
  /** The language the window speaks now: the wanted one once its catalogue has loaded, English until then. */
  current = $derived<Lang>(this.loaded.includes(this.wanted) ? this.wanted : 'en');
}

/** The window's language. */
export const language = new LanguageStore();

const loading = new Map<Lang, Promise<void>>();

/**
 * Loads lang's catalogue, once; resolves when the window can speak it. A
 * catalogue that failed to load is tried again the next time it is wanted;
 * meanwhile the window stays in English.
 */
export function loadLanguage(lang: Lang): Promise<void> {
  if (lang === 'en' || catalogues[lang]) return Promise.resolve();
  let pending = loading.get(lang);
  if (!pending) {
    pending = catalogueChunks[lang]()
      .then((m) => {
        catalogues[lang] = m.default;
        language.loaded = [...language.loaded, lang];
      })
      .catch((e) => {
        console.error(`the ${lang} catalogue did not load:`, e);
      })
      .finally(() => loading.delete(lang));
    loading.set(lang, pending);
  }
  return pending;
}

// Whenever the person wants a language (Settings, Go's answer at start), its catalogue loads.
$effect.root(() => {
  $effect(() => {
    void loadLanguage(language.wanted);
  });
});

const placeholder = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;

function template(key: string, lang: Lang): string | undefined {
  return catalogues[lang]?.[key] ?? en[key as MessageKey];
}

function argText(v: unknown, lang: Lang): string {
  if (v && typeof v === 'object' && 'key' in v) return render(v as GoMessage, lang);
  return String(v);
}

function fill(tmpl: string, args: Record<string, unknown>, lang: Lang): string {
  return tmpl.replace(placeholder, (ph, name: string) => (name in args ? argText(args[name], lang) : ph));
}

function render(m: GoMessage, lang: Lang): string {
  if (!m.key) {
    const items = m.args?.items;
    if (Array.isArray(items)) return listText(items.map((it) => argText(it, lang)), lang);
    return m.text ?? String(m.args?.text ?? '');
  }
  const tmpl = template(m.key, lang);
  return tmpl === undefined ? m.text : fill(tmpl, m.args ?? {}, lang);
}

/** Items joined as Go's i18n.List joins them, with the catalogue's list.two and list.more. */
function listText(items: string[], lang: Lang): string {
  if (items.length < 2) return items[0] ?? '';
  let head = items[0];
  for (const it of items.slice(1, -1)) head = fill(template('list.more', lang) ?? '', { a: head, b: it }, lang);
  return fill(template('list.two', lang) ?? '', { a: head, b: items[items.length - 1] }, lang);
}

/** The sentence for key in the window's language, with its placeholders filled. */
export function t(key: MessageKey, args: Args = {}): string {
  const lang = language.current;
  return fill(template(key, lang) ?? key, args, lang);
}

/**
 * Keys with a plural pair: base.one for n === 1, base.other otherwise
 * (Chinese has the same text in both). n is passed as the argument {n}.
 */
type PluralBase = {
  [K in MessageKey]: K extends `${infer B}.one` ? (`${B}.other` extends MessageKey ? B : never) : never;
}[MessageKey];

/** The sentence of a plural pair for n (n is also its {n}). */
export function tn(base: PluralBase, n: number, args: Args = {}): string {
  return t(`${base}.${n === 1 ? 'one' : 'other'}` as MessageKey, { ...args, n });
}

/** A sentence from Go in the window's language; its own text when the key is unknown here. */
export function msg(m: GoMessage | null | undefined): string {
  return m ? render(m, language.current) : '';
}

/** Whether v is a sentence from Go. */
export function isGoMessage(v: unknown): v is GoMessage {
  return !!v && typeof v === 'object' && 'key' in v && 'args' in v && typeof (v as GoMessage).key === 'string';
}

/** One piece of a sentence for <Tr>: text, or the name of a placeholder the caller fills with markup. */
export type Part = { text: string; slot?: string };

/**
 * The sentence for key cut at the placeholders named in slots, which the
 * caller fills with markup (a highlighted server name); the others are
 * filled from args as t() does.
 */
export function parts(key: MessageKey, args: Args, slots: readonly string[]): Part[] {
  const lang = language.current;
  const tmpl = template(key, lang) ?? key;
  const out: Part[] = [];
  let last = 0;
  for (const m of tmpl.matchAll(placeholder)) {
    if (!slots.includes(m[1])) continue;
    out.push({ text: fill(tmpl.slice(last, m.index), args, lang) });
    out.push({ text: '', slot: m[1] });
    last = (m.index ?? 0) + m[0].length;
  }
  out.push({ text: fill(tmpl.slice(last), args, lang) });
  return out.filter((p) => p.slot || p.text);
}

/** Intl's locale for the window's language. */
export function locale(): string {
  return language.current;
}

/** A time of day ("14:05") in the window's language. */
export function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString(locale(), { hour: '2-digit', minute: '2-digit' });
}

/** A date and time in the window's language. */
export function formatDateTime(iso: string | Date): string {
  const d = iso instanceof Date ? iso : new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(locale());
}

/** Items one after another, as the window's language separates them ("a, b, c"; "a、b、c"). */
export function joinItems(items: string[]): string {
  const lang = language.current;
  if (items.length === 0) return '';
  return items.reduce((head, it) => fill(template('list.more', lang) ?? '', { a: head, b: it }, lang));
}

/** What goes between two sentences: a space in English, nothing in Chinese (from list.sentences). */
export function sentenceGap(): string {
  return fill(template('list.sentences', language.current) ?? '{a} {b}', { a: '', b: '' }, language.current);
}

/** A list of names joined as the window's language joins them ("a, b and c"; "a、b 和 c"). */
export function formatList(items: string[]): string {
  return new Intl.ListFormat(locale(), { style: 'long', type: 'conjunction' }).format(items);
}
