// A model's Markdown in the chat (issue 11): what a person sees, that hostile
// Markdown makes nothing that could fetch, run or navigate, that links only
// reach the caller's consent callback, and that streaming gives the same
// page as the whole text.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import Markdown from './Markdown.svelte';

// Elements that load, run, embed or navigate; none may ever be rendered.
const forbidden = [
  'a', 'area', 'audio', 'base', 'embed', 'form', 'frame', 'iframe', 'img', 'input', 'link', 'meta', 'object',
  'picture', 'script', 'source', 'style', 'svg', 'math', 'track', 'video', 'template', 'textarea', 'select',
].join(', ');

// Every attribute the renderer writes; anything else (href, src, style,
// on…) means model text reached an attribute it must not.
const allowedAttributes = new Set(['class', 'title', 'type', 'role', 'aria-label', 'aria-live', 'start']);

function expectInert(container: HTMLElement) {
  expect(container.querySelectorAll(forbidden).length).toBe(0);
  for (const el of container.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      expect({ element: el.tagName, attribute: attr.name }).toEqual({
        element: el.tagName,
        attribute: allowedAttributes.has(attr.name) ? attr.name : '(not allowed)',
      });
    }
  }
}

// The page's text with Svelte's anchors and the scoped class names left out.
function page(container: HTMLElement): string {
  return container.innerHTML.replace(/<!--[^]*?-->/g, '').replace(/ class="svelte-[a-z0-9]+"/g, '');
}

afterEach(() => {
  vi.restoreAllMocks();
  delete (window as unknown as { __pwned?: number }).__pwned;
});

describe('Markdown with hostile input', () => {
  it.each([
    ['a script block is literal text', '<script>window.__pwned=1</script>', '<script>window.__pwned=1</script>'],
    ['an image tag is literal text', '<img src=x onerror="window.__pwned=1">', '<img src=x onerror="window.__pwned=1">'],
    ['inline HTML is literal text', 'Hi <img src=x onerror="window.__pwned=1"> there <b>bold?</b>', 'Hi <img src=x onerror="window.__pwned=1"> there <b>bold?</b>'],
    ['an HTML link is literal text', 'See <a href="https://evil.example">here</a>.', 'See <a href="https://evil.example">here</a>.'],
    [
      'a raw HTML block with an iframe is literal text',
      '<div onclick="x">\n<iframe src="https://evil.example/"></iframe>\n</div>',
      '<div onclick="x">\n<iframe src="https://evil.example/"></iframe>\n</div>',
    ],
    ['a style block is literal text', '<style>body{background:url(https://t.example/x)}</style>', '<style>body{background:url(https://t.example/x)}</style>'],
    ['an SVG is literal text', '<svg onload="window.__pwned=1">', '<svg onload="window.__pwned=1">'],
    ['an HTML comment is shown', '<!-- hidden instructions -->', '<!-- hidden instructions -->'],
    ['a Markdown image is described, never loaded', '![x](https://tracker.example/p.png)', '[image: x — https://tracker.example/p.png]'],
    ['an image without alt text is described', '![](https://tracker.example/p.png)', '[image — https://tracker.example/p.png]'],
    ['a javascript: link is text with its address', '[click](javascript:alert(1))', 'click (javascript:alert(1))'],
    ['a javascript: link written with a character reference is text', '[click](&#x6A;avascript:alert(1))', 'click (javascript:alert(1))'],
    ['a data: link is text', '[x](data:text/html,<script>alert(1)</script>)', 'x (data:text/html,<script>alert(1)</script>)'],
    ['a file: link is text', '[passwords](file:///etc/passwd)', 'passwords (file:///etc/passwd)'],
    ['a relative link is text', '[settings](/settings)', 'settings (/settings)'],
    ['an e-mail autolink is text', 'Write to <me@example.com>', 'Write to me@example.com'],
    ['a reference link to javascript: is text', '[bad][2]\n\n[2]: javascript:alert(1)', 'bad (javascript:alert(1))'],
    ['character references are decoded as text', '&lt;script&gt; &copy; &#169; AT&T', '<script> © © AT&T'],
    ['nested emphasis is text in strong and em', '***both*** and **bold *em* inside** and ~~gone~~', 'both and bold em inside and gone'],
    ['a bidi override is made visible', 'invoice\u202Efdp.exe', 'invoiceU+202Efdp.exe'],
  ])('%s', (_name, markdown, seen) => {
    const onlink = vi.fn();
    const { container } = render(Markdown, { text: markdown, onlink });
    expect(container.textContent).toBe(seen);
    expectInert(container);
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it.each([
    ['an inline link', '[the docs](https://docs.example/guide)', 'https://docs.example/guide', 'the docs'],
    ['an autolink', 'Go to <https://auto.example/x>.', 'https://auto.example/x', 'https://auto.example/x'],
    ['a bare web address', 'Go to https://bare.example/x now', 'https://bare.example/x', 'https://bare.example/x'],
    ['a reference link defined after it', 'Read [the docs][d].\n\n[d]: https://docs.example/', 'https://docs.example/', 'the docs'],
    ['a shortcut reference link', '[docs]\n\n[docs]: https://docs.example/', 'https://docs.example/', 'docs'],
  ])('%s is a button that hands its address to onlink', async (_name, markdown, url, label) => {
    const user = userEvent.setup();
    const onlink = vi.fn();
    const { container } = render(Markdown, { text: markdown, onlink });
    expectInert(container);
    const before = window.location.href;
    await user.click(screen.getByRole('button', { name: label }));
    expect(onlink).toHaveBeenCalledTimes(1);
    expect(onlink).toHaveBeenCalledWith(url);
    expect(window.location.href).toBe(before);
    expect(document.querySelector('dialog[open]')).toBeNull();
  });

  it.each([
    ['a thousand', 1000],
    ['five thousand (more than marked can lex)', 5000],
  ])('keeps %s nested quotes from making a page too deep to lay out', (_name, n) => {
    const { container } = render(Markdown, { text: '> '.repeat(n) + 'deep', onlink: vi.fn() });
    expect(container.querySelectorAll('blockquote').length).toBeLessThanOrEqual(13);
    expect(container.textContent).toContain('deep');
    expectInert(container);
  });

  it('shows where a link leads when its text says something else', () => {
    const { container } = render(Markdown, { text: 'Log in at [paypal.com](https://paypal.com.evil.example/login).', onlink: vi.fn() });
    expect(container.textContent).toBe('Log in at paypal.com (paypal.com.evil.example).');
    expect(screen.getByRole('button', { name: 'paypal.com' }).title).toBe('https://paypal.com.evil.example/login');
  });
});

describe('Markdown rendering', () => {
  it('renders paragraphs, emphasis, code, headings, lists, quotes, tables, rules and line breaks', () => {
    const text = [
      '# Title',
      '',
      'A *soft* **strong** ~~old~~ `code` line',
      'next line',
      '',
      '1. one',
      '2. two',
      '',
      'Then:',
      '',
      '5. five',
      '',
      '- [x] done',
      '- [ ] todo',
      '',
      '> quoted',
      '',
      '| Name | Size |',
      '| :--- | ---: |',
      '| a | 1 |',
      '',
      '---',
      '',
      '```ts',
      'const x = 1;',
      '```',
    ].join('\n');
    const { container } = render(Markdown, { text, onlink: vi.fn() });
    expectInert(container);
    // A level-1 heading sits below the window's own headings.
    expect(screen.getByRole('heading', { name: 'Title' }).tagName).toBe('H3');
    const p = container.querySelector('p')!;
    expect(p.querySelector('em')!.textContent).toBe('soft');
    expect(p.querySelector('strong')!.textContent).toBe('strong');
    expect(p.querySelector('del')!.textContent).toBe('old');
    expect(p.querySelector('code')!.textContent).toBe('code');
    expect(p.querySelector('br')).not.toBeNull();
    const lists = container.querySelectorAll('ol');
    expect(lists[0].textContent).toBe('onetwo');
    expect(lists[1].getAttribute('start')).toBe('5');
    const tasks = container.querySelector('ul')!;
    expect(tasks.textContent).toBe('☑ done☐ todo');
    expect(screen.getByRole('img', { name: 'done' }).textContent).toBe('☑');
    expect(container.querySelector('blockquote')!.textContent).toBe('quoted');
    expect([...container.querySelectorAll('th')].map((c) => c.textContent)).toEqual(['Name', 'Size']);
    expect(container.querySelector('td.align-right')!.textContent).toBe('1');
    expect(container.querySelector('hr')).not.toBeNull();
    expect(container.querySelector('pre')!.textContent).toBe('const x = 1;');
    expect(screen.getByText('ts')).toBeTruthy();
  });

  it('renders Chinese text and a code block of Chinese comments', () => {
    const text = '## 天气\n\n北京今天**晴**，气温 `25°C`。\n\n```python\n# 打印问候\nprint("你好")\n```';
    const { container } = render(Markdown, { text, onlink: vi.fn() });
    expect(screen.getByRole('heading', { name: '天气' })).toBeTruthy();
    expect(container.querySelector('strong')!.textContent).toBe('晴');
    expect(container.querySelector('pre')!.textContent).toBe('# 打印问候\nprint("你好")');
  });

  it('Copy puts the code itself on the clipboard and says Copied', async () => {
    const user = userEvent.setup();
    const code = 'echo "hi" && rm -i x\u202E';
    render(Markdown, { text: '```sh\n' + code + '\n```', onlink: vi.fn() });
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(code);
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy();
  });

  it('Copy falls back to copying a selection when the clipboard API refuses', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('not allowed'));
    const copied: string[] = [];
    const execCommand = vi.fn((command: string) => {
      const area = document.querySelector('textarea');
      if (command === 'copy' && area) copied.push(area.value);
      return true;
    });
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    try {
      render(Markdown, { text: '```\nls -la\n```', onlink: vi.fn() });
      await user.click(screen.getByRole('button', { name: 'Copy' }));
      expect(execCommand).toHaveBeenCalledWith('copy');
      expect(copied).toEqual(['ls -la']);
      expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy();
      expect(document.querySelector('textarea')).toBeNull();
    } finally {
      delete (document as unknown as { execCommand?: unknown }).execCommand;
    }
  });
});

describe('Markdown while streaming', () => {
  const answer = [
    '## Plan',
    '',
    'I will call **two tools**, then summarise. 我会先查询天气。',
    '',
    '1. Look up the weather',
    '2. Read the [forecast](https://weather.example/beijing)',
    '',
    '```json',
    '{ "city": "北京", "days": 3 }',
    '```',
    '',
    '| Day | Sky |',
    '| --- | --- |',
    '| Mon | sun |',
    '',
    '> Note: <b>raw html</b> stays text, and ![chart](https://t.example/c.png) is not loaded.',
    '',
    '- [x] asked',
    '- [ ] answered',
    '',
    'See [the docs][docs] and <https://auto.example>.',
    '',
    '[docs]: https://docs.example/',
  ].join('\n');

  it('2,000 chunks give the same page as the whole text at once', async () => {
    // Three characters a chunk, ending in the middle of a block.
    const text = `${answer}\n\n`.repeat(10).slice(0, 6000);
    const size = 3;
    const { container, rerender } = render(Markdown, { text: '', streaming: true, onlink: vi.fn() });
    for (let i = 0; i < 2000; i++) {
      await rerender({ text: text.slice(0, (i + 1) * size), streaming: true });
    }
    await rerender({ text, streaming: false });
    const whole = render(Markdown, { text, onlink: vi.fn() });
    expect(page(container)).toBe(page(whole.container));
    expectInert(container);
  }, 60_000);

  it('shows emphasis and code left open at the end as closed until the text is complete', async () => {
    const { container, rerender } = render(Markdown, { text: 'Now **bold', streaming: true, onlink: vi.fn() });
    expect(container.querySelector('strong')!.textContent).toBe('bold');
    await rerender({ text: 'Now **bold', streaming: false });
    expect(container.querySelector('strong')).toBeNull();
    expect(container.textContent).toBe('Now **bold');
  });

  it('shows an unterminated code fence as a code block, without a closing fence still being typed', async () => {
    const { container, rerender } = render(Markdown, { text: '```py\nprint(1)\n``', streaming: true, onlink: vi.fn() });
    expect(container.querySelector('pre')!.textContent).toBe('print(1)');
    await rerender({ text: '```py\nprint(1)\n```\n\nDone.', streaming: true });
    expect(container.querySelector('pre')!.textContent).toBe('print(1)');
    expect(container.querySelector('p')!.textContent).toBe('Done.');
  });
});
