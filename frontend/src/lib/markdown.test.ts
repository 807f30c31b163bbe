// The Markdown model behind components/shared/Markdown.svelte: what a link, an
// image or raw HTML becomes, and that streaming a text in pieces gives the
// same blocks as the whole text, while lexing only a bounded tail.
import { describe, expect, it } from 'vitest';
import { closeOpenInline, markdownBlocks, maxNesting, MarkdownStream, pageSize, plainText, webURL, type Block } from './markdown';

// A small deterministic random generator, so a failing case can be replayed.
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Lines that exercise every block rule and the ways blocks meet: lists that
// continue after a blank line, lazy lines, setext underlines, fences left
// open, indented code after a paragraph, tables, raw HTML, definitions that
// come after the links that use them, Windows line ends.
const lines = [
  '',
  '',
  '',
  'Plain text with **strong** and *em* and ~~gone~~ and `code`.',
  '中文段落，包含**粗体**和`代码`。',
  '- item',
  '- [ ] task',
  '- [x] done',
  '* star item',
  '1. first',
  '2. second',
  '10) tenth',
  '  continued in the item',
  '    indented code',
  '> quoted',
  '> > nested quote',
  'lazy line',
  '# Heading',
  '### Small *heading*',
  'Setext',
  '---',
  '===',
  '***',
  '```js',
  '```',
  '~~~',
  '| a | b |',
  '| --- | :-: |',
  '| 1 | 2 |',
  '<div>',
  '</div>',
  '<script>alert(1)</script>',
  '<!-- comment',
  '-->',
  '[ref]: https://ref.example/path "Title"',
  '[other]: javascript:alert(1)',
  'See [the ref][ref], [other][] and [ref].',
  '![image][ref] and [link](https://x.example/a_(b)) and <https://auto.example>',
  'www.bare.example and mail@host.example',
  'Unclosed **strong and `code',
  'line with trailing spaces  ',
  'a\\',
  '&copy; &#x202E; &amp;amp; AT&T',
  '\t\ttabbed',
  '  - nested item',
  '    - deeper',
  'text\r',
  // Blocks that continue across a blank line, when their next line arrives.
  '1. first\n\n2. second',
  '- a\n\n- b',
  '- a\n\n  b after a blank line',
  '> a\n\n> b',
  '    code\n\n    more code',
  'para\n    not code',
  '# h\n- a',
  '```\nfence\n\n```',
];

function document(rand: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(lines[Math.floor(rand() * lines.length)]);
  return out.join('\n') + (rand() < 0.5 ? '\n' : '');
}

function pieces(rand: () => number, text: string, most: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const n = 1 + Math.floor(rand() * most);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

function streamed(chunks: string[], check?: (text: string, blocks: Block[]) => void): Block[] {
  const stream = new MarkdownStream();
  let text = '';
  let blocks: Block[] = [];
  for (const c of chunks) {
    text += c;
    const view = stream.update(text);
    blocks = [...view.pages.flat(), ...view.tail].map((k) => k.block);
    check?.(text, blocks);
  }
  return blocks;
}

describe('MarkdownStream', () => {
  it('gives the same blocks as the whole text, for 400 random documents streamed in random pieces', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const rand = random(seed);
      const text = document(rand, 5 + Math.floor(rand() * 40));
      const chunks = pieces(rand, text, [1, 3, 25][seed % 3]);
      // Every tenth document is compared after every piece too; the others
      // at the end, where a block frozen too early would still be wrong.
      const check =
        seed % 10 === 0
          ? (prefix: string, blocks: Block[]) => expect({ seed, prefix, blocks }).toEqual({ seed, prefix, blocks: markdownBlocks(prefix) })
          : undefined;
      const blocks = streamed(chunks, check);
      expect({ seed, text, blocks }).toEqual({ seed, text, blocks: markdownBlocks(text) });
    }
  }, 60_000);

  it('lexes a bounded number of blocks per piece however long the text grows', () => {
    const paragraphs: string[] = [];
    for (let i = 0; i < 200; i++) {
      paragraphs.push(
        i % 4 === 0
          ? `## Part ${i}`
          : i % 4 === 1
            ? `Paragraph ${i} with **strong** text and a [link](https://example.com/${i}).`
            : i % 4 === 2
              ? `- item ${i}\n- item ${i + 1}`
              : '```ts\nconst x = ' + i + ';\n```',
      );
    }
    const text = paragraphs.join('\n\n');
    const stream = new MarkdownStream();
    let most = 0;
    let total = 0;
    const chunks = pieces(random(7), text, 6);
    let sofar = '';
    for (const c of chunks) {
      sofar += c;
      stream.update(sofar);
      most = Math.max(most, stream.reparsed);
      total += stream.reparsed;
    }
    expect(most).toBeLessThanOrEqual(3);
    expect(total / chunks.length).toBeLessThan(2.5);
    const view = stream.update(sofar);
    expect(view.pages.flat().length).toBeGreaterThan(190);
  });

  it('keeps a full page of frozen blocks the same array while the text grows', () => {
    const stream = new MarkdownStream();
    let text = '';
    let firstPage: unknown = null;
    for (let i = 0; i < pageSize * 3; i++) {
      text += `Paragraph ${i}.\n\n`;
      const view = stream.update(text);
      expect(view.pages.every((p) => p.length <= pageSize)).toBe(true);
      if (view.pages[0]?.length === pageSize) {
        firstPage ??= view.pages[0];
        expect(view.pages[0]).toBe(firstPage);
      }
    }
    expect(firstPage).not.toBeNull();
  });

  it('lexes the text that uses a reference again when its definition arrives later', () => {
    const stream = new MarkdownStream();
    const text = 'Read [the docs][d].\n\nMore text.\n\n[d]: https://docs.example/\n';
    let view = stream.update(text.slice(0, 32));
    expect(JSON.stringify(view.pages)).not.toContain('docs.example');
    view = stream.update(text);
    const first = view.pages[0][0].block as Extract<Block, { kind: 'paragraph' }>;
    expect(first.children[1]).toMatchObject({ kind: 'link', url: 'https://docs.example/' });
  });

  it('starts over when the text is replaced rather than grown', () => {
    const stream = new MarkdownStream();
    stream.update('First answer.\n\nSecond paragraph.\n\nThird');
    const view = stream.update('Another answer');
    expect([...view.pages.flat(), ...view.tail].map((k) => k.block)).toEqual(markdownBlocks('Another answer'));
  });
});

describe('closeOpenInline', () => {
  it.each([
    ['open strong is closed', '**bold so fa', '**bold so fa**'],
    ['closers go before trailing spaces', '**bold ', '**bold** '],
    ['an opener with nothing after it is hidden', 'text **', 'text '],
    ['open code is closed', 'run `npm te', 'run `npm te`'],
    ['emphasis inside code is left alone', 'x `a ** b', 'x `a ** b`'],
    ['nested openers close in order', '**a ~~b', '**a ~~b~~**'],
    ['closed emphasis is unchanged', '**a** and ~~b~~', '**a** and ~~b~~'],
    ['a multiplication is unchanged', '2 * 3 = 6', '2 * 3 = 6'],
    ['an escaped marker is text', '\\**not bold', '\\**not bold'],
    ['Chinese text', '这是**重点', '这是**重点**'],
  ])('%s', (_name, input, want) => {
    expect(closeOpenInline(input)).toBe(want);
  });

  it('shows streaming emphasis as emphasis and the final text exactly', () => {
    const stream = new MarkdownStream();
    const open = stream.update('Hello **wor', true);
    expect(open.tail[0].block).toEqual({
      kind: 'paragraph',
      children: [{ kind: 'text', text: 'Hello ' }, { kind: 'strong', children: [{ kind: 'text', text: 'wor' }] }],
    });
    const done = stream.update('Hello **wor', false);
    expect(done.tail[0].block).toEqual({ kind: 'paragraph', children: [{ kind: 'text', text: 'Hello **wor' }] });
  });
});

describe('webURL', () => {
  it.each([
    ['https', 'https://example.com/a?b=c', 'https://example.com/a?b=c'],
    ['http in capitals', 'HTTP://Example.com', 'HTTP://Example.com'],
    ['javascript', 'javascript:alert(1)', ''],
    ['javascript in capitals with spaces', '  JavaScript:alert(1)', ''],
    ['data', 'data:text/html,<script>alert(1)</script>', ''],
    ['file', 'file:///etc/passwd', ''],
    ['mailto', 'mailto:a@b.example', ''],
    ['relative', '/settings', ''],
    ['protocol-relative', '//evil.example/x', ''],
    ['a tab inside the scheme', 'ht\ttp://x.example', ''],
    ['no host', 'https://', ''],
  ])('%s', (_name, input, want) => {
    expect(webURL(input)).toBe(want);
  });
});

describe('markdownBlocks', () => {
  it('decodes character references, also in link destinations', () => {
    const blocks = markdownBlocks('&copy; &lt;b&gt; [x](&#x6A;avascript:alert(1))');
    expect(blocks).toEqual([
      {
        kind: 'paragraph',
        children: [
          { kind: 'text', text: '© <b> ' },
          { kind: 'inert-link', address: 'javascript:alert(1)', children: [{ kind: 'text', text: 'x' }] },
        ],
      },
    ]);
  });

  it('names the host of a link whose text does not show its address', () => {
    const [p] = markdownBlocks('[PayPal](https://paypal.com.evil.example/login) and <https://ok.example>');
    expect(p).toMatchObject({
      children: [
        { kind: 'link', url: 'https://paypal.com.evil.example/login', host: 'paypal.com.evil.example' },
        { kind: 'text', text: ' and ' },
        { kind: 'link', url: 'https://ok.example', host: '' },
      ],
    });
  });

  it('cuts a long data: address', () => {
    const [p] = markdownBlocks(`![pic](data:image/png;base64,${'A'.repeat(5000)})`);
    const image = (p as Extract<Block, { kind: 'paragraph' }>).children[0] as { kind: 'image'; address: string };
    expect(image.kind).toBe('image');
    expect([...image.address].length).toBe(121);
    expect(image.address.endsWith('…')).toBe(true);
  });

  it('shows quotes nested deeper than maxNesting as the text they were written as', () => {
    let block = markdownBlocks('> '.repeat(100) + 'deep')[0];
    let quotes = 0;
    while (block.kind === 'quote') {
      quotes++;
      block = block.children[0];
    }
    expect(quotes).toBe(maxNesting + 1);
    expect(block).toEqual({ kind: 'raw', text: '> '.repeat(100 - quotes - 1) + '> deep' });
  });

  it('shows emphasis nested deeper than maxNesting as text', () => {
    const [p] = markdownBlocks('**a '.repeat(40) + 'x' + ' b**'.repeat(40)) as Extract<Block, { kind: 'paragraph' }>[];
    expect(plainText(p.children)).toContain('x');
    expect(JSON.stringify(p).match(/"strong"/g)!.length).toBeLessThanOrEqual(maxNesting + 1);
  });

  it('shows text that marked cannot lex as it is, whole or streamed', () => {
    const hostile = '>'.repeat(5000) + ' x';
    expect(markdownBlocks(hostile)).toEqual([{ kind: 'raw', text: hostile }]);
    const view = new MarkdownStream().update(hostile);
    expect(view.tail.map((k) => k.block)).toEqual([{ kind: 'raw', text: hostile }]);
  });
});
