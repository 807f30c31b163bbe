// A virtual list's arithmetic, for the chat transcript (ChatMessages): only
// the rows on screen, and a margin around them, are drawn; the others are
// counted by their height, measured once they were drawn, estimated until
// then. Rows are named by a key, so a row's measured height stays with it
// when rows are added before it or the list is derived again.
//
// The scroll position is kept by an anchor: the first row on screen and how
// far the view's top is into it. When a height above changes (a row drawn
// for the first time, an answer that grows), the anchor's new offset says
// where the view's top goes, so that what the person reads stays put.

/**
 * The rows' heights: measured by key, else estimated by the mean of the
 * rows of the same kind measured (a question is short, an answer with code
 * is tall), else of all rows measured.
 */
export class Heights {
  private measured = new Map<string, { h: number; kind: string }>();
  private sums = new Map<string, { sum: number; n: number }>();
  private sum = 0;
  /** The height given to a row never drawn while nothing was measured yet. */
  readonly fallback: number;

  constructor(fallback = 120) {
    this.fallback = fallback;
  }

  private count(kind: string, h: number, n: number) {
    const k = this.sums.get(kind) ?? { sum: 0, n: 0 };
    k.sum += h;
    k.n += n;
    if (k.n === 0) this.sums.delete(kind);
    else this.sums.set(kind, k);
    this.sum += h;
  }

  /** Records a row's drawn height (and its kind, for estimating the others); true when it changed. */
  set(key: string, height: number, kind = ''): boolean {
    const old = this.measured.get(key);
    if (old?.h === height && old.kind === kind) return false;
    if (old) this.count(old.kind, -old.h, -1);
    this.count(kind, height, 1);
    this.measured.set(key, { h: height, kind });
    return true;
  }

  /** The measured height of key, if it was drawn. */
  get(key: string): number | undefined {
    return this.measured.get(key)?.h;
  }

  /** The estimate for a row never drawn, of this kind. */
  estimate(kind?: string): number {
    const k = kind === undefined ? undefined : this.sums.get(kind);
    if (k) return k.sum / k.n;
    return this.measured.size ? this.sum / this.measured.size : this.fallback;
  }

  /** Forgets the rows not in keys (a conversation that was left). */
  keepOnly(keys: Iterable<string>): void {
    const keep = new Set(keys);
    for (const [k, m] of this.measured) {
      if (!keep.has(k)) {
        this.measured.delete(k);
        this.count(m.kind, -m.h, -1);
      }
    }
  }

  /** How many rows were measured. */
  get size(): number {
    return this.measured.size;
  }
}

/**
 * offsets returns the top of each row and, last, the list's height: n+1
 * numbers. A row's height is its measured one, else the estimate for its
 * kind (kinds[i], when given).
 */
export function offsets(keys: readonly string[], heights: Heights, kinds?: readonly string[]): Float64Array {
  const out = new Float64Array(keys.length + 1);
  const est = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) {
    let h = heights.get(keys[i]);
    if (h === undefined) {
      const kind = kinds?.[i] ?? '';
      h = est.get(kind);
      if (h === undefined) {
        h = heights.estimate(kinds ? kind : undefined);
        est.set(kind, h);
      }
    }
    out[i + 1] = out[i] + h;
  }
  return out;
}

/** rowAt is the index of the row at y (clamped to the rows): the last row whose top is ≤ y. */
export function rowAt(offs: Float64Array, y: number): number {
  const n = offs.length - 1;
  if (n <= 0) return 0;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offs[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A row to draw, and the empty space between it and the row drawn before it. */
export interface Drawn {
  index: number;
  /** Pixels of rows not drawn between this row and the previous one drawn (or the list's top). */
  before: number;
}

/**
 * drawnRows says which rows to draw: those from top-margin to
 * top+viewport+margin (list coordinates), and the pinned ones wherever they
 * are (a running turn, an app still near), in order, each with the space
 * of the undrawn rows before it. after is the space below the last one.
 */
export function drawnRows(
  offs: Float64Array,
  top: number,
  viewport: number,
  margin: number,
  pinned: Iterable<number> = [],
): { rows: Drawn[]; after: number } {
  const n = offs.length - 1;
  const set = new Set<number>();
  if (n > 0) {
    const first = rowAt(offs, Math.max(0, top - margin));
    const bottom = top + viewport + margin;
    for (let i = first; i < n && offs[i] < bottom; i++) set.add(i);
    // Always the row at the bottom edge, so that a view scrolled past the end still draws something.
    if (set.size === 0) set.add(rowAt(offs, bottom));
  }
  for (const p of pinned) if (p >= 0 && p < n) set.add(p);
  const order = [...set].sort((a, b) => a - b);
  const rows: Drawn[] = [];
  let end = 0;
  for (const i of order) {
    rows.push({ index: i, before: offs[i] - end });
    end = offs[i + 1];
  }
  return { rows, after: n > 0 ? offs[n] - end : 0 };
}

/** Where the view's top is: in row key, offset pixels below that row's top. */
export interface Anchor {
  key: string;
  offset: number;
}

/** anchorAt is the anchor of a view whose top is at y (list coordinates); null for no rows. */
export function anchorAt(offs: Float64Array, keys: readonly string[], y: number): Anchor | null {
  if (keys.length === 0) return null;
  const i = rowAt(offs, y);
  return { key: keys[i], offset: y - offs[i] };
}

/**
 * anchoredTop is where the view's top goes for anchor in the new layout;
 * null when its row is gone (the caller keeps the scroll position as it is).
 */
export function anchoredTop(offs: Float64Array, keys: readonly string[], anchor: Anchor | null): number | null {
  if (!anchor) return null;
  const i = keys.indexOf(anchor.key);
  return i < 0 ? null : offs[i] + anchor.offset;
}

/** A place where the find box's text occurs: the row and which occurrence in it (0-based). */
export interface Match {
  row: number;
  nth: number;
}

/**
 * findMatches lists every occurrence of query in the rows' texts (case is
 * ignored; an empty query finds nothing), in order, whether the row is
 * drawn or not. Occurrences do not overlap.
 */
export function findMatches(texts: readonly string[], query: string): Match[] {
  const q = query.toLocaleLowerCase();
  const out: Match[] = [];
  if (!q) return out;
  texts.forEach((text, row) => {
    const s = text.toLocaleLowerCase();
    let nth = 0;
    for (let at = s.indexOf(q); at >= 0; at = s.indexOf(q, at + q.length)) out.push({ row, nth: nth++ });
  });
  return out;
}

/** stepMatch is the next (or, backwards, the previous) match's index after current, wrapping around; -1 for none. */
export function stepMatch(count: number, current: number, backwards: boolean): number {
  if (count === 0) return -1;
  if (current < 0) return backwards ? count - 1 : 0;
  return (current + (backwards ? count - 1 : 1)) % count;
}

/**
 * plainText is Markdown as a person reads it, near enough for finding text:
 * without emphasis, code and heading marks, a link as its words, table
 * pipes and rule lines dropped.
 */
export function plainText(md: string): string {
  return md
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|```.*$)/gm, '')
    .replace(/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, '')
    .replace(/[ \t]*\|[ \t]*/g, ' ')
    .replace(/(\*\*|__|\*|_|`|~~)/g, '');
}

/**
 * textRanges finds the occurrences of query in the text under root (case
 * ignored), as DOM ranges, for highlighting a drawn row. An occurrence may
 * span elements (a **bold** word inside it).
 */
export function textRanges(root: Node, query: string): Range[] {
  const q = query.toLocaleLowerCase();
  if (!q) return [];
  const doc = root.ownerDocument ?? (root as Document);
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  const starts: number[] = [];
  let all = '';
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    nodes.push(n as Text);
    starts.push(all.length);
    all += (n as Text).data;
  }
  const s = all.toLocaleLowerCase();
  const ranges: Range[] = [];
  const bounds = Float64Array.from([...starts, all.length]);
  /** The text node and offset of character c of all. */
  const place = (c: number, end: boolean): [Text, number] => {
    let i = rowAt(bounds, c);
    // An end exactly at a node's start belongs to the node before it.
    if (end && i > 0 && starts[i] === c) i--;
    return [nodes[i], c - starts[i]];
  };
  for (let at = s.indexOf(q); at >= 0; at = s.indexOf(q, at + q.length)) {
    const r = doc.createRange();
    r.setStart(...place(at, false));
    r.setEnd(...place(at + q.length, true));
    ranges.push(r);
  }
  return ranges;
}
