// A model's Markdown as a tree of plain nodes, built from marked's token tree
// (never its HTML output), and kept up to date cheaply while the text streams
// in. Model output is untrusted, like server text: the nodes carry text only,
// raw HTML stays literal text, an image is only described, and a link can be
// followed only when it is a web address (http or https), through the
// caller's consent display. components/shared/Markdown.svelte renders the nodes.
//
// Streaming: re-lexing a whole message on every chunk is quadratic. A
// MarkdownStream lexes only the tail of the text, the part after the blocks
// it has already frozen, and freezes a block once a later block has started
// in a way that can no longer join it (see cutIndex). Reference definitions
// are the one thing a later block changes in an earlier one; when the known
// definitions change, the frozen parts that may use them are lexed again.

import { getDefaults, Lexer } from 'marked';
import type { Links, MarkedOptions, MarkedToken, Token, Tokens } from 'marked';
import { decodeHTMLStrict } from 'entities';

/** A piece of inline content, as a person sees it. */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'em' | 'strong' | 'del'; children: Inline[] }
  | { kind: 'break' }
  /**
   * A web link (http or https), opened only through the caller's consent
   * display. `host` is set when the link's text does not name it.
   */
  | { kind: 'link'; url: string; host: string; children: Inline[] }
  /**
   * A link to something other than a web page (javascript:, data:, file:,
   * mailto:, a relative path): text only, never followed. `address` is set
   * when the text does not show it.
   */
  | { kind: 'inert-link'; address: string; children: Inline[] }
  /** An image, never loaded: shown as a description. */
  | { kind: 'image'; alt: string; address: string }
  /** A task list item's box, shown as ☐ or ☑. */
  | { kind: 'task'; checked: boolean };

/** Column alignment of a table. */
export type Align = 'left' | 'center' | 'right' | null;

/** A block of the message. */
export type Block =
  | { kind: 'paragraph'; children: Inline[] }
  /** The text of a tight list item: inline content without a paragraph around it. */
  | { kind: 'inline'; children: Inline[] }
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { kind: 'code'; text: string; lang: string }
  | { kind: 'quote'; children: Block[] }
  | { kind: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { kind: 'table'; align: Align[]; head: Inline[][]; rows: Inline[][][] }
  | { kind: 'rule' }
  /** Raw HTML, shown as the literal text it is. */
  | { kind: 'raw'; text: string };

/** A top-level block with a key that stays the same while the text grows (its offset). */
export type KeyedBlock = { key: number; block: Block };

/**
 * What to render: the frozen blocks, in pages of up to pageSize, and the
 * growing tail. A page is a new array only when it changed, so a renderer
 * can skip the unchanged ones without even comparing their blocks.
 */
export type MarkdownView = { pages: KeyedBlock[][]; tail: KeyedBlock[] };

/** How many frozen blocks a page holds. */
export const pageSize = 32;

// GitHub-flavoured Markdown; a single newline inside a paragraph is a line
// break, as people (and models) writing in a chat expect.
function lexerOptions(): MarkedOptions {
  return { ...getDefaults(), gfm: true, breaks: true, pedantic: false, silent: false };
}

/** The longest address shown in full; longer ones (data: URLs above all) are cut with "…". */
const addressShown = 120;

const webAddress = /^https?:\/\//i;

/**
 * The URL to hand to the consent display when href is a web address
 * (http or https), or "" for anything else: javascript:, data:, file:,
 * mailto:, relative paths, and addresses that do not parse.
 */
export function webURL(href: string): string {
  const url = href.trim();
  if (!webAddress.test(url)) return '';
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? url : '';
  } catch {
    return '';
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

function shortAddress(address: string): string {
  if (address.length <= addressShown) return address;
  // Only the head is split into characters: a data: URL can be megabytes.
  const head = [...address.slice(0, addressShown * 2)];
  if (head.length <= addressShown && address.length <= addressShown * 2) return address;
  return head.slice(0, addressShown).join('') + '…';
}

// A link's destination as written, with character references decoded
// (CommonMark decodes them there: `&#x6A;avascript:` is javascript:).
function destination(href: string | null | undefined): string {
  return decodeHTMLStrict(href ?? '').trim();
}

/** The text a person reads in inline nodes (for image descriptions and link checks). */
export function plainText(nodes: Inline[]): string {
  let out = '';
  for (const n of nodes) {
    switch (n.kind) {
      case 'text':
      case 'code':
        out += n.text;
        break;
      case 'break':
        out += '\n';
        break;
      case 'image':
        out += n.alt;
        break;
      case 'task':
        out += n.checked ? '☑ ' : '☐ ';
        break;
      default:
        out += plainText(n.children);
    }
  }
  return out;
}

/**
 * How deep quotes, lists and emphasis may nest before the rest is shown as
 * the text it was written as: hostile text can nest thousands deep, which
 * would only make a page too deep to lay out (or a stack to overflow).
 */
export const maxNesting = 12;

/** Inline nodes from marked's inline tokens. */
export function inlineNodes(tokens: Token[] | undefined, depth = 0): Inline[] {
  if (depth > maxNesting) return [{ kind: 'text', text: (tokens ?? []).map((t) => t.raw ?? '').join('') }];
  const out: Inline[] = [];
  const text = (t: string) => {
    if (!t) return;
    const last = out.at(-1);
    if (last?.kind === 'text') last.text += t;
    else out.push({ kind: 'text', text: t });
  };
  for (const token of tokens ?? []) {
    const t = token as MarkedToken;
    switch (t.type) {
      case 'text':
        // Text that is part of raw HTML (after an inline <pre> or <script>) stays
        // as written; elsewhere character references are decoded to the
        // characters they stand for. Block-level text (tight list items) has
        // its own inline tokens.
        if ('tokens' in t && t.tokens) out.push(...inlineNodes(t.tokens, depth));
        else text(t.escaped ? t.raw : decodeHTMLStrict(t.raw));
        break;
      case 'escape':
        text(t.text);
        break;
      case 'html':
        text(t.raw);
        break;
      case 'codespan':
        out.push({ kind: 'code', text: t.text });
        break;
      case 'br':
        out.push({ kind: 'break' });
        break;
      case 'em':
      case 'strong':
      case 'del':
        out.push({ kind: t.type, children: inlineNodes(t.tokens, depth + 1) });
        break;
      case 'link': {
        const children = inlineNodes(t.tokens, depth + 1);
        const href = destination(t.href);
        const url = webURL(href);
        if (url) {
          const host = hostOf(url);
          out.push({ kind: 'link', url, host: plainText(children).toLowerCase().includes(host) ? '' : host, children });
        } else {
          const shown = plainText(children).trim();
          const redundant = shown === href || `mailto:${shown}` === href;
          out.push({ kind: 'inert-link', address: redundant ? '' : shortAddress(href), children });
        }
        break;
      }
      case 'image':
        out.push({ kind: 'image', alt: plainText(inlineNodes(t.tokens, depth + 1)), address: shortAddress(destination(t.href)) });
        break;
      case 'checkbox':
        out.push({ kind: 'task', checked: t.checked });
        break;
      default:
        // A token type this renderer does not know: what was written, as text.
        text(token.raw ?? '');
    }
  }
  return out;
}

const fenceOpen = /^ {0,3}(`{3,}|~{3,})/;

// Whether a fenced code block's raw text ends with its closing fence.
function fenceClosed(raw: string): boolean {
  const open = fenceOpen.exec(raw);
  if (!open) return true;
  const lines = raw.replace(/\n$/, '').split('\n');
  if (lines.length < 2) return false;
  const last = lines[lines.length - 1];
  const mark = open[1];
  const close = new RegExp(`^ {0,3}${mark[0] === '`' ? '`' : '~'}{${mark.length},}[ \\t]*$`);
  return close.test(last);
}

/** Whether a list item starts with a task box (then it needs no bullet). */
export function isTask(item: Block[]): boolean {
  const first = item[0];
  return (first?.kind === 'inline' || first?.kind === 'paragraph') && first.children[0]?.kind === 'task';
}

/** Block nodes from marked's block tokens. Definitions and blank lines show nothing. */
export function blockNodes(tokens: Token[], depth = 0): Block[] {
  const out: Block[] = [];
  for (const token of tokens) {
    const b = blockNode(token, depth);
    if (b) out.push(b);
  }
  return out;
}

function blockNode(token: Token, depth = 0): Block | null {
  const t = token as MarkedToken;
  if (depth > maxNesting && t.type !== 'space') return { kind: 'raw', text: t.raw };
  switch (t.type) {
    case 'space':
    case 'def':
      return null;
    case 'paragraph':
      return { kind: 'paragraph', children: inlineNodes(t.tokens) };
    case 'text':
      return { kind: 'inline', children: 'tokens' in t && t.tokens ? inlineNodes(t.tokens) : inlineNodes([t]) };
    case 'checkbox':
      return { kind: 'inline', children: [{ kind: 'task', checked: t.checked }] };
    case 'heading':
      return { kind: 'heading', level: Math.min(Math.max(t.depth, 1), 6) as 1 | 2 | 3 | 4 | 5 | 6, children: inlineNodes(t.tokens) };
    case 'code':
      return { kind: 'code', text: t.text, lang: (t.lang ?? '').split(/\s/)[0] };
    case 'blockquote':
      return { kind: 'quote', children: blockNodes(t.tokens, depth + 1) };
    case 'list': {
      const start = typeof t.start === 'number' && Number.isFinite(t.start) ? t.start : 1;
      return {
        kind: 'list',
        ordered: t.ordered,
        start,
        items: (t.items as Tokens.ListItem[]).map((item) => blockNodes(item.tokens, depth + 1)),
      };
    }
    case 'table':
      return {
        kind: 'table',
        align: t.align.map((a) => a ?? null),
        head: t.header.map((cell) => inlineNodes(cell.tokens)),
        rows: t.rows.map((row) => row.map((cell) => inlineNodes(cell.tokens))),
      };
    case 'hr':
      return { kind: 'rule' };
    case 'html':
      return { kind: 'raw', text: t.raw.replace(/\n+$/, '') };
    default:
      return token.raw ? { kind: 'paragraph', children: [{ kind: 'text', text: token.raw }] } : null;
  }
}

// --- Streaming -------------------------------------------------------------

/** One lexing of a piece of text: its top-level tokens and the definitions it knew. */
type Lexed = { tokens: Token[]; links: Links };

// Lexes src as marked's Lexer.lex does, but on its own: the definitions
// already known are given (the first definition of a label wins), and each
// block's inline content is lexed from a clean state, so that a block lexes
// the same whether it comes first in a piece of text or not. When repair is
// set (while the text streams in), the inline content that ends the text has
// its open emphasis or code closed for display.
function lex(src: string, known: Links, repair: boolean): Lexed {
  const lexer = new Lexer(lexerOptions());
  Object.assign(lexer.tokens.links, known);
  const tokens = lexer.blockTokens(src, []);
  const queue = lexer.inlineQueue;
  if (repair) repairEnd(tokens, queue);
  for (const next of queue) {
    lexer.state.inRawBlock = false;
    lexer.state.inLink = false;
    lexer.inlineTokens(next.src, next.tokens);
  }
  lexer.inlineQueue = [];
  return { tokens, links: lexer.tokens.links };
}

// While the text streams in: closes the emphasis and code left open in the
// inline content that ends the text, and hides a closing fence still being
// typed ("``") at the end of an open code block.
function repairEnd(tokens: Token[], queue: { src: string; tokens: Token[] }[]): void {
  const last = tokens.at(-1) as MarkedToken | undefined;
  if (last?.type === 'code' && last.codeBlockStyle !== 'indented' && !fenceClosed(last.raw)) {
    const lines = last.text.split('\n');
    if (lines.length > 0 && /^ {0,3}(`+|~+)$/.test(lines[lines.length - 1])) last.text = lines.slice(0, -1).join('\n');
    return;
  }
  const end = endingInline(tokens);
  const entry = queue.at(-1);
  if (end && entry?.tokens === end) entry.src = closeOpenInline(entry.src);
}

// The inline token list that ends the text, when the text ends in inline
// content (a paragraph, a heading, the last item of a list, a quote's last
// paragraph), or null.
function endingInline(tokens: Token[]): Token[] | null {
  const last = tokens.at(-1) as MarkedToken | undefined;
  if (!last) return null;
  switch (last.type) {
    case 'paragraph':
    case 'heading':
    case 'text':
      return last.tokens ?? null;
    case 'blockquote':
      return endingInline(last.tokens);
    case 'list': {
      const item = (last.items as Tokens.ListItem[]).at(-1);
      return item ? endingInline(item.tokens) : null;
    }
    default:
      return null;
  }
}

/**
 * For display while the text is still arriving: closes the inline code,
 * strong emphasis (`**`, `***`) and strikethrough (`~~`) left open at the end
 * of src, so "**bold so fa" shows bold rather than two asterisks; an opener
 * with nothing after it yet is hidden instead. Single `*` and `_` are left
 * alone (they are as often a multiplication or a name).
 */
export function closeOpenInline(src: string): string {
  const open: { mark: string; at: number }[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (ch !== '`' && ch !== '*' && ch !== '~') {
      i++;
      continue;
    }
    let end = i;
    while (end < src.length && src[end] === ch) end++;
    const run = src.slice(i, end);
    if (ch === '`') {
      const close = findRun(src, run, end);
      if (close < 0) return closeCode(src, i, run, open);
      i = close + run.length;
      continue;
    }
    const mark = ch === '~' ? (run.length === 2 ? '~~' : '') : run.length === 2 || run.length === 3 ? run : '';
    if (mark) {
      const before = i > 0 ? src[i - 1] : ' ';
      const after = end < src.length ? src[end] : ' ';
      const top = open.at(-1);
      if (top?.mark === mark && !/\s/.test(before)) open.pop();
      else if (!/\s/.test(after) || end === src.length) open.push({ mark, at: i });
    }
    i = end;
  }
  return close(src, open);
}

// The index of the next run of exactly `run` at or after from, or -1.
function findRun(src: string, run: string, from: number): number {
  let at = src.indexOf(run, from);
  while (at >= 0) {
    let end = at + run.length;
    if (src[end] !== run[0] && src[at - 1] !== run[0]) return at;
    while (src[end] === run[0]) end++;
    at = src.indexOf(run, end);
  }
  return -1;
}

function closeCode(src: string, at: number, run: string, open: { mark: string; at: number }[]): string {
  if (src.slice(at + run.length).trim() === '') return close(src.slice(0, at), open);
  return close(src + run, open);
}

function close(src: string, open: { mark: string; at: number }[]): string {
  let text = src;
  // An opener with nothing after it yet is hidden rather than closed.
  while (open.length > 0 && text.slice(open[open.length - 1].at + open[open.length - 1].mark.length).trim() === '') {
    text = text.slice(0, open.pop()!.at);
  }
  if (open.length === 0) return text;
  const body = text.trimEnd();
  const closers = open.map((o) => o.mark).reverse().join('');
  return body + closers + text.slice(body.length);
}

// Top-level tokens after which a later block can never join or change the
// ones before: a blank line (space), a closed fenced code block (an open one
// runs to the end of the text, so it is always last), a heading, a rule.
// None of marked's block rules reads such a token as "the token before".
function endsBlocks(token: Token): boolean {
  const t = token as MarkedToken;
  switch (t.type) {
    case 'space':
    case 'hr':
    case 'heading':
      return true;
    case 'code':
      return t.codeBlockStyle !== 'indented';
    default:
      return false;
  }
}

// How many of the tokens can be frozen: the tokens before the last token t
// that follows a block ender and whose first line is complete. A first line
// still arriving can turn into anything ("2" into "2. item", which would
// continue a list above a blank line).
function cutIndex(tokens: Token[]): number {
  for (let j = tokens.length - 1; j >= 1; j--) {
    const t = tokens[j];
    if (t.type === 'space' || !endsBlocks(tokens[j - 1])) continue;
    if (j < tokens.length - 1 || t.raw.includes('\n')) return j;
  }
  return 0;
}

// Offset in the original text of `normalized` characters of its CR-LF
// normalized form (marked reads \r\n and \r as \n).
function originalOffset(original: string, normalized: number): number {
  if (!original.includes('\r')) return normalized;
  let o = 0;
  for (let n = 0; n < normalized; n++) {
    o += original[o] === '\r' && original[o + 1] === '\n' ? 2 : 1;
  }
  return o;
}

/** A frozen stretch of text, lexed once (again only when the definitions it may use change). */
type Segment = {
  /** Offset in the normalized text, for the keys of its blocks. */
  at: number;
  src: string;
  blocks: KeyedBlock[];
  /** Whether it has a "[" and so may use a reference definition. */
  refs: boolean;
};

function keyed(tokens: Token[], at: number): KeyedBlock[] {
  const out: KeyedBlock[] = [];
  let offset = at;
  for (const t of tokens) {
    const block = blockNode(t);
    if (block) out.push({ key: offset, block });
    offset += t.raw.length;
  }
  return out;
}

function signature(links: Links): string {
  return JSON.stringify(Object.entries(links));
}

function definitionsIn(tokens: Token[], into: Links): void {
  for (const token of tokens) {
    const t = token as MarkedToken;
    if (t.type === 'def') {
      if (!Object.hasOwn(into, t.tag)) into[t.tag] = { href: t.href, title: t.title };
    } else if (t.type === 'blockquote') {
      definitionsIn(t.tokens, into);
    } else if (t.type === 'list') {
      for (const item of t.items as Tokens.ListItem[]) definitionsIn(item.tokens, into);
    }
  }
}

/**
 * A MarkdownStream turns a growing text into blocks, lexing each completed
 * block once. Give it the whole text each time (update); when the new text
 * does not start with what it has frozen (the text was replaced), it starts
 * over. Not for concurrent use; one per rendered message.
 */
export class MarkdownStream {
  /** How many top-level blocks the last update lexed: the growing tail and any frozen parts lexed again. */
  reparsed = 0;

  /** The original text that the frozen segments cover. */
  private frozenText = '';
  /** Its length once normalized (the key offset of the tail). */
  private frozenLength = 0;
  private segments: Segment[] = [];
  /** Definitions in the frozen text, first one of a label first. */
  private links: Links = Object.create(null);
  private pages: KeyedBlock[][] = [];
  /** The definitions (frozen and in the tail) the segments were lexed with, as a signature. */
  private known = signature(Object.create(null));

  /** The blocks of text; streaming closes open emphasis and code at its end for display. */
  update(text: string, streaming = false): MarkdownView {
    if (!text.startsWith(this.frozenText)) this.reset();
    this.reparsed = 0;
    const original = text.slice(this.frozenText.length);
    const tail = original.includes('\r') ? original.replace(/\r\n?/g, '\n') : original;
    let lexed: Lexed;
    try {
      lexed = lex(tail, this.links, streaming);
    } catch {
      // marked gave up on this text: show it as it is rather than lose it.
      return { pages: this.pages, tail: [{ key: this.frozenLength, block: { kind: 'raw', text: tail } }] };
    }
    const { tokens } = lexed;
    this.reparsed += countBlocks(tokens);

    const cut = cutIndex(tokens);
    const known = signature(lexed.links);
    if (known !== this.known) {
      this.relexSegments(lexed.links);
      this.known = known;
      this.pages = [];
      this.addToPages(this.segments.flatMap((s) => s.blocks));
    }
    if (cut > 0) {
      const frozenTokens = tokens.slice(0, cut);
      const length = frozenTokens.reduce((n, t) => n + t.raw.length, 0);
      const src = tail.slice(0, length);
      const blocks = keyed(frozenTokens, this.frozenLength);
      this.segments.push({ at: this.frozenLength, src, blocks, refs: src.includes('[') });
      definitionsIn(frozenTokens, this.links);
      this.frozenText += original.slice(0, originalOffset(original, length));
      this.frozenLength += length;
      this.addToPages(blocks);
    }
    return { pages: this.pages, tail: keyed(tokens.slice(cut), this.frozenLength) };
  }

  // Appends frozen blocks: the last page is replaced by a longer copy, full
  // pages are left as they are, and the list of pages is a new array.
  private addToPages(blocks: KeyedBlock[]): void {
    if (blocks.length === 0) return;
    const pages = this.pages.slice();
    let rest = blocks;
    const last = pages.at(-1);
    if (last && last.length < pageSize) {
      pages[pages.length - 1] = last.concat(rest.slice(0, pageSize - last.length));
      rest = rest.slice(pageSize - last.length);
    }
    for (let i = 0; i < rest.length; i += pageSize) pages.push(rest.slice(i, i + pageSize));
    this.pages = pages;
  }

  // Lexes again the frozen segments that may use a reference definition, for
  // the definitions known changed since they were lexed: a definition may
  // come after the link that uses it.
  private relexSegments(links: Links): void {
    this.segments = this.segments.map((s) => {
      if (!s.refs) return s;
      try {
        const again = lex(s.src, links, false);
        this.reparsed += countBlocks(again.tokens);
        return { ...s, blocks: keyed(again.tokens, s.at) };
      } catch {
        return s;
      }
    });
  }

  private reset(): void {
    this.frozenText = '';
    this.frozenLength = 0;
    this.segments = [];
    this.links = Object.create(null);
    this.pages = [];
    this.known = signature(Object.create(null));
  }
}

function countBlocks(tokens: Token[]): number {
  return tokens.filter((t) => t.type !== 'space').length;
}

/** The blocks of a whole text, lexed at once: what a MarkdownStream shows once the text is complete. */
export function markdownBlocks(text: string): Block[] {
  const src = text.replace(/\r\n?/g, '\n');
  try {
    return blockNodes(lex(src, Object.create(null), false).tokens);
  } catch {
    return [{ kind: 'raw', text: src }];
  }
}
