// Tests of the virtual list's arithmetic (virtual.ts): heights measured and
// estimated, which rows are drawn, the anchor that keeps the scroll
// position, and finding text in rows that are not drawn.
import { describe, expect, it } from 'vitest';
import {
  anchorAt,
  anchoredTop,
  drawnRows,
  findMatches,
  Heights,
  offsets,
  plainText,
  rowAt,
  stepMatch,
  textRanges,
} from './virtual';

const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);

describe('Heights and offsets', () => {
  it('estimates rows never drawn by the mean of those drawn, the fallback before any', () => {
    const h = new Heights(100);
    expect(h.estimate()).toBe(100);
    expect(h.set('a', 50)).toBe(true);
    expect(h.set('a', 50)).toBe(false);
    h.set('b', 150);
    expect(h.estimate()).toBe(100);
    h.set('a', 250); // a row that grew (an answer streaming)
    expect(h.estimate()).toBe(200);
    h.keepOnly(['b']);
    expect(h.size).toBe(1);
    expect(h.estimate()).toBe(150);
  });

  it('estimates a row by the rows of its kind measured, else by all', () => {
    const h = new Heights(100);
    h.set('q1', 40, 'user');
    h.set('a1', 600, 'answer:code');
    h.set('a2', 400, 'answer:code');
    expect(h.estimate('user')).toBe(40);
    expect(h.estimate('answer:code')).toBe(500);
    expect(h.estimate('answer:table')).toBe(1040 / 3);
    h.set('a1', 600, 'user'); // a row whose kind changed moves between the means
    expect(h.estimate('answer:code')).toBe(400);
    expect(h.estimate('user')).toBe(320);
    h.keepOnly(['q1']);
    expect(h.estimate('answer:code')).toBe(40);
    expect([...offsets(['q1', 'q2', 'x'], h, ['user', 'user', 'answer'])]).toEqual([0, 40, 80, 120]);
  });

  it.each([
    { name: 'all estimated', measured: {}, want: [0, 100, 200, 300] },
    { name: 'one measured', measured: { k1: 40 }, want: [0, 40, 80, 120] },
    { name: 'two measured', measured: { k0: 10, k2: 30 }, want: [0, 10, 30, 60] },
  ])('offsets: $name', ({ measured, want }) => {
    const h = new Heights(100);
    for (const [k, v] of Object.entries(measured)) h.set(k, v);
    expect([...offsets(keys(3), h)]).toEqual(want);
  });

  it.each([
    { y: -5, want: 0 },
    { y: 0, want: 0 },
    { y: 99.5, want: 0 },
    { y: 100, want: 1 },
    { y: 250, want: 2 },
    { y: 10_000, want: 2 },
  ])('rowAt($y) is $want', ({ y, want }) => {
    expect(rowAt(Float64Array.from([0, 100, 200, 300]), y)).toBe(want);
  });
});

describe('drawnRows', () => {
  const offs = offsets(keys(1000), new Heights(100)); // 1,000 rows of 100 px

  it('draws the rows on screen and the margin, with the space of the others before and after', () => {
    const { rows, after } = drawnRows(offs, 50_000, 600, 300);
    expect(rows.map((r) => r.index)).toEqual([497, 498, 499, 500, 501, 502, 503, 504, 505, 506, 507, 508]);
    expect(rows[0].before).toBe(49_700);
    expect(rows.slice(1).every((r) => r.before === 0)).toBe(true);
    expect(after).toBe(100_000 - 50_900);
    // The drawn rows and the spaces add up to the whole list.
    expect(rows.reduce((s, r) => s + r.before + 100, 0) + after).toBe(100_000);
  });

  it('draws a pinned row far away (a running turn) with the space between', () => {
    const { rows, after } = drawnRows(offs, 0, 300, 0, [999]);
    expect(rows.map((r) => [r.index, r.before])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
      [999, 99_600],
    ]);
    expect(after).toBe(0);
  });

  it('draws the last row of a view scrolled past the end, and nothing for no rows', () => {
    expect(drawnRows(offs, 200_000, 600, 0).rows.map((r) => r.index)).toEqual([999]);
    expect(drawnRows(new Float64Array(1), 0, 600, 300)).toEqual({ rows: [], after: 0 });
  });

  it('stays bounded for 10,000 rows whatever the place', () => {
    const big = offsets(keys(10_000), new Heights(80));
    for (const top of [0, 123_456, 799_000]) {
      expect(drawnRows(big, top, 800, 800).rows.length).toBeLessThanOrEqual(32);
    }
  });
});

describe('anchoring', () => {
  it('keeps what the person reads in place when a row above is measured taller', () => {
    const k = keys(100);
    const h = new Heights(100);
    for (const key of k) h.set(key, 100);
    let offs = offsets(k, h);
    const a = anchorAt(offs, k, 5_030); // 30 px into row 50
    expect(a).toEqual({ key: 'k50', offset: 30 });
    h.set('k10', 400); // above: 300 px taller (an answer that grew)
    h.set('k60', 900); // below: no effect on the anchor
    offs = offsets(k, h);
    expect(anchoredTop(offs, k, a)).toBe(5_330);
  });

  it('keeps the place when rows are added above (older messages) and when the estimate moves', () => {
    const h = new Heights(100);
    h.set('k5', 100);
    let k = keys(10);
    const a = anchorAt(offsets(k, h), k, 520);
    k = ['new0', 'new1', ...k];
    h.set('k0', 300); // the estimate of the others moves too
    const offs = offsets(k, h);
    expect(anchoredTop(offs, k, a)).toBe(offs[k.indexOf('k5')] + 20);
  });

  it('gives up when the anchor row is gone or there are no rows', () => {
    const h = new Heights();
    expect(anchorAt(offsets([], h), [], 10)).toBeNull();
    expect(anchoredTop(offsets(['x'], h), ['x'], { key: 'gone', offset: 1 })).toBeNull();
    expect(anchoredTop(offsets(['x'], h), ['x'], null)).toBeNull();
  });
});

describe('finding text', () => {
  it('finds every occurrence in every row, drawn or not, ignoring case', () => {
    const texts = Array.from({ length: 1000 }, (_, i) => (i % 250 === 7 ? 'Needle and NEEDLE' : `row ${i}`));
    expect(findMatches(texts, 'needle')).toEqual([
      { row: 7, nth: 0 },
      { row: 7, nth: 1 },
      { row: 257, nth: 0 },
      { row: 257, nth: 1 },
      { row: 507, nth: 0 },
      { row: 507, nth: 1 },
      { row: 757, nth: 0 },
      { row: 757, nth: 1 },
    ]);
    expect(findMatches(texts, '')).toEqual([]);
    expect(findMatches(['aaaa'], 'aa')).toHaveLength(2); // no overlaps
    expect(findMatches(['配置文件在数据目录下'], '数据')).toEqual([{ row: 0, nth: 0 }]);
  });

  it.each([
    { count: 0, current: -1, back: false, want: -1 },
    { count: 3, current: -1, back: false, want: 0 },
    { count: 3, current: -1, back: true, want: 2 },
    { count: 3, current: 2, back: false, want: 0 },
    { count: 3, current: 0, back: true, want: 2 },
    { count: 3, current: 1, back: false, want: 2 },
  ])('stepMatch($count, $current, back=$back) is $want', ({ count, current, back, want }) => {
    expect(stepMatch(count, current, back)).toBe(want);
  });

  it('reads Markdown as a person does', () => {
    expect(plainText('## Reading lines\n\nUse a **bufio.Scanner** and `Scan()`: see [the docs](https://x.y/z).')).toBe(
      'Reading lines\n\nUse a bufio.Scanner and Scan(): see the docs.',
    );
    expect(plainText('| 字段 | 含义 |\n|---|---|\n| name | 名称 |')).toBe(' 字段 含义 \n\n name 名称 ');
  });

  it('finds the drawn occurrences as ranges, across elements', () => {
    const div = document.createElement('div');
    div.innerHTML = '<p>Use a <strong>buf</strong>io scanner; BUFIO again</p>';
    const ranges = textRanges(div, 'bufio');
    expect(ranges.map((r) => r.toString())).toEqual(['bufio', 'BUFIO']);
    expect(textRanges(div, '')).toEqual([]);
    expect(textRanges(div, 'absent')).toEqual([]);
  });
});
