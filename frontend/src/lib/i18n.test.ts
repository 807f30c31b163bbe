// The window's side of the message catalogue: t() and friends render both
// languages, every key the sources use exists, and no English sentence is
// left as a literal in a component (a heuristic scan with an allow-list).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import en from '../../../i18n/locales/en.json';
import zh from '../../../i18n/locales/zh-CN.json';
import { flushSync } from 'svelte';
import { formatList, joinItems, language, loadLanguage, matchLanguage, msg, parts, systemLanguage, t, tn } from './i18n.svelte';

afterEach(() => {
  language.choice = '';
});

describe('a language other than English', () => {
  it('loads when first wanted: English until its catalogue is here, then the wanted language', async () => {
    expect(language.loaded).toEqual(['en']);
    language.choice = 'zh-CN';
    expect(language.current).toBe('en');
    expect(t('nav.servers')).toBe('Servers');
    flushSync(); // the window's effects run: the catalogue starts loading
    await loadLanguage('zh-CN');
    expect(language.current).toBe('zh-CN');
    expect(t('nav.servers')).toBe('服务器');
  });
});

describe('t', () => {
  beforeAll(() => loadLanguage('zh-CN'));

  it('renders English by default and Chinese when chosen, with the placeholders filled', () => {
    expect(t('consent.queue.same', { n: 2, server: 'Demo' })).toBe('2 more waiting from Demo');
    language.choice = 'zh-CN';
    expect(t('consent.queue.same', { n: 2, server: 'Demo' })).toBe('Demo 另有 2 个请求在等待');
    language.choice = 'en';
    expect(t('nav.servers')).toBe('Servers');
  });

  it('picks the .one or .other wording by the count', () => {
    expect(tn('consent.secret', 1, { fields: '“PIN”' })).toMatch(/^This field seems/);
    expect(tn('consent.secret', 2, { fields: '“PIN”, “Code”' })).toMatch(/^These fields seem/);
  });

  it('renders a sentence from Go in the window language, nested messages and lists included', () => {
    const fromGo = {
      key: 'linkcheck.warn.mixedScript.imitates',
      args: {
        scripts: {
          key: '',
          args: {
            items: [
              { key: 'linkcheck.script.latin', args: {}, text: 'Latin' },
              { key: 'linkcheck.script.cyrillic', args: {}, text: 'Cyrillic' },
            ],
          },
          text: 'Latin and Cyrillic',
        },
        name: 'apple.com',
      },
      text: 'English text from Go',
    };
    expect(msg(fromGo)).toBe(
      'This address mixes letters from several alphabets (Latin and Cyrillic) in one name and may imitate apple.com.',
    );
    language.choice = 'zh-CN';
    expect(msg(fromGo)).toBe('此地址在同一个名称中混用了多种文字的字母（拉丁字母和西里尔字母），可能在仿冒 apple.com。');
    expect(msg({ key: 'no.such.key', args: {}, text: 'as Go wrote it' })).toBe('as Go wrote it');
    expect(msg({ key: '', args: { text: 'exit status 1' }, text: 'exit status 1' })).toBe('exit status 1');
  });

  it('cuts a sentence at the placeholders that get markup', () => {
    expect(parts('consent.title.form', {}, ['server'])).toEqual([
      { text: '', slot: 'server' },
      { text: ' is asking for your input' },
    ]);
    language.choice = 'zh-CN';
    expect(parts('consent.title.toolCall', {}, ['server'])).toEqual([
      { text: '允许调用 ' },
      { text: '', slot: 'server' },
      { text: ' 的工具吗？' },
    ]);
  });

  it('joins lists as each language does', () => {
    expect(joinItems(['a', 'b', 'c'])).toBe('a, b, c');
    expect(formatList(['a', 'b', 'c'])).toBe('a, b, and c');
    language.choice = 'zh-CN';
    expect(joinItems(['a', 'b', 'c'])).toBe('a、b、c');
  });
});

describe('the system language', () => {
  it.each([
    [['zh-CN'], 'zh-CN'],
    [['zh-TW', 'en'], 'zh-CN'],
    [['zh-Hans-SG'], 'zh-CN'],
    [['fr-FR', 'en-GB'], 'en'],
    [['de-DE'], 'en'],
    [[], 'en'],
  ])('%j is %s', (tags, want) => {
    expect(systemLanguage(tags)).toBe(want);
  });

  it('matches only languages the catalogue has', () => {
    expect(matchLanguage('fr')).toBeNull();
    expect(matchLanguage('en_US.UTF-8')).toBe('en');
  });
});

// Every source file under src/ as text, by its path from src/ ("components/App.svelte"),
// without the tests, benchmarks and test helpers.
const files: Record<string, string> = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>(['../**/*.svelte', '../**/*.ts', '!../**/*.test.ts', '!../**/*.bench.ts', '!../test/**'], {
      query: '?raw',
      import: 'default',
      eager: true,
    }),
  ).map(([path, text]) => [path.replace(/^\.\.\//, '').replace(/^\.\//, 'lib/'), text]),
);
const sources = () => Object.keys(files);
const readFileSync = (file: string) => files[file];
const relative = (_: unknown, file: string) => file;
const src = '';

describe('the catalogue in the sources', () => {
  it('has both languages with the same keys', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it('has every key the sources pass to t, tn, msg or <Tr>', () => {
    const keys = new Set(Object.keys(en));
    const missing: string[] = [];
    for (const file of sources()) {
      const text = readFileSync(file);
      for (const m of text.matchAll(/\bt\(\s*'([^']+)'|\bk="([^"{]+)"|\btn\(\s*'([^']+)'/g)) {
        const key = m[1] ?? m[2];
        if (key && !keys.has(key)) missing.push(`${relative(src, file)}: ${key}`);
        if (m[3] && !(keys.has(`${m[3]}.one`) && keys.has(`${m[3]}.other`))) missing.push(`${relative(src, file)}: ${m[3]}.one/.other`);
      }
    }
    expect(missing).toEqual([]);
  });

  // A heuristic: text between tags, and the text of aria-label, title,
  // placeholder and alt attributes, that holds an English word of two or
  // more letters, outside <script> and <style> and comments. Words that are
  // the same in every language (names, formats) are allowed.
  const allowed = new Set(['Gatehouse', 'JSON', 'MCP', 'URL', 'HTTP', 'stdio', 'OAuth', 'API', 'ID', 'PKCE', 'Markdown']);
  // Examples of what to type, the same in every language.
  const examples = new Set(['npx', 'NAME=value', 'https://example.com/mcp', 'Name: value', 'http://127.0.0.1:11434/v1']);
  // Files whose text is not in the catalogue yet (this list only shrinks).
  const notYet = new Set<string>([]);
  it('finds no English left as a literal in the markup of a component', () => {
    const found: string[] = [];
    for (const file of sources().filter((f) => f.endsWith('.svelte') && !notYet.has(relative(src, f)))) {
      let markup = readFileSync(file)
        .replace(/<script[\s\S]*?<\/script>/g, '')
        .replace(/<style[\s\S]*?<\/style>/g, '')
        .replace(/<!--[\s\S]*?-->/g, '');
      // Expressions are code, not text: take them out, innermost first.
      for (let before = ''; before !== markup; ) {
        before = markup;
        markup = markup.replace(/\{[^{}]*\}/g, ' ');
      }
      const texts = [
        ...[...markup.matchAll(/>([^<>]+)</g)].map((m) => m[1]),
        ...[...markup.matchAll(/\b(?:aria-label|title|placeholder|alt)="([^"]+)"/g)].map((m) => m[1]),
      ];
      for (const text of texts) {
        if (examples.has(text.trim())) continue;
        const words = (text.match(/[A-Za-z]{2,}/g) ?? []).filter((w) => !allowed.has(w));
        if (words.length > 0) found.push(`${relative(src, file)}: ${text.trim()}`);
      }
    }
    expect(found).toEqual([]);
  });

  // The same for sentences in scripts: a quoted string that starts with a
  // capital letter and has at least two words is taken for English meant
  // for a person.
  it('finds no English sentence left in the scripts', () => {
    const found: string[] = [];
    for (const file of sources()) {
      if (file.endsWith('i18n.svelte.ts') || notYet.has(relative(src, file))) continue;
      let code = readFileSync(file);
      if (file.endsWith('.svelte')) code = [...code.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
      code = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      for (const m of code.matchAll(/(['"`])([A-Z][a-z]+[ ,][^'"`\n]*[a-z][^'"`\n]*)\1/g)) {
        found.push(`${relative(src, file)}: ${m[2]}`);
      }
    }
    expect(found).toEqual([]);
  });
});
