// Component tests of the JSON tree (issue 22, item 5): it draws the model Go
// built and nothing else. The hostile tree is Go's own output for arguments
// built to mislead (visible/testdata/hostile.json, kept by the Go test
// TestJSON_HostileGolden), so both sides are tested on the same model.
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/svelte';
import type { JsonNode } from '../../lib/api';
import hostile from '../../../../visible/testdata/hostile.json';
import JsonTree from './JsonTree.svelte';
import { jsonNode } from '../../test/fixtures';

const hidden = /[\u202E\u200B\u2028]/;

/** The text a person reads: what is inside closed <details> is not on screen. */
function readable(el: Element): string {
  const copy = el.cloneNode(true) as Element;
  for (const d of copy.querySelectorAll('details:not([open])')) {
    for (const child of [...d.children]) if (child.tagName !== 'SUMMARY') child.remove();
  }
  return copy.textContent ?? '';
}

describe('JsonTree', () => {
  it("draws Go's tree of hostile arguments: hidden characters as marked codes, numbers as written, open to the last leaf", () => {
    const { container } = render(JsonTree, { props: { node: hostile as JsonNode } });
    const text = readable(container);
    expect(text).not.toMatch(hidden);
    expect(text).toContain('"payU+202Eexe.txtU+200B andU+2028more"');
    expect(text).toContain('big: 9007199254740993');
    expect(text).toContain('huge: 1e400');
    expect(text).toContain('l4: "bottom"');
    expect(text).not.toContain('Infinity');
    const marks = [...container.querySelectorAll('.hidden-char')];
    expect(marks.map((m) => m.textContent)).toEqual(['U+202E', 'U+200B', 'U+2028']);
    expect(marks[0].getAttribute('title')).toBe('Invisible character: right-to-left override');
    expect(container.querySelectorAll('details:not([open])')).toHaveLength(0);
  });

  it('keeps closed what Go says to keep closed (a large tree)', () => {
    const node: JsonNode = { kind: 'object', open: true, children: [{ kind: 'array', key: [{ text: 'rows' }], open: false, children: [{ kind: 'number', text: '1' }] }] };
    const { container } = render(JsonTree, { props: { node } });
    expect(container.querySelectorAll('details:not([open])')).toHaveLength(1);
    expect(readable(container)).toContain('rows: [1 item]');
  });

  it('marks a key the JSON holds twice, showing the value that counts', () => {
    const node: JsonNode = {
      kind: 'object',
      open: true,
      children: [{ kind: 'string', key: [{ text: 'path' }], segments: [{ text: '/etc/passwd' }], repeated: true }],
    };
    const { container } = render(JsonTree, { props: { node } });
    expect(container.textContent).toContain('pathrepeated: "/etc/passwd"');
    expect(container.querySelector('.repeated')?.getAttribute('title')).toMatch(/more than once/);
  });

  it('shows array items by their place, the empty key and the empty string', () => {
    const { container } = render(JsonTree, { props: { node: jsonNode({ '': '', list: ['a', null, true] }) } });
    const text = readable(container);
    expect(text).toContain('"": ""');
    expect(text).toContain('0: "a"');
    expect(text).toContain('1: null');
    expect(text).toContain('2: true');
  });

  it('shows text that is not JSON as it is, with its hidden characters marked', () => {
    const { container } = render(JsonTree, { props: { node: { kind: 'text', segments: [{ text: '{"a":' }, { code: 'U+202E' }] } } });
    expect(container.textContent).toBe('{"a":U+202E');
  });
});
