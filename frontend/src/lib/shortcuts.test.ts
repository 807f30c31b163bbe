// The window's shortcuts as a person presses them: real keydown events on
// the page, with the dialogs and fields where the person's focus is.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listenForShortcuts, shortcutOf } from './shortcuts';

interface Press {
  key: string;
  code?: string;
  ctrl?: boolean;
  shift?: boolean;
  alt?: boolean;
  composing?: boolean;
}

function keydown({ key, code = '', ctrl = true, shift = false, alt = false, composing = false }: Press): KeyboardEvent {
  return new KeyboardEvent('keydown', {
    key,
    code,
    ctrlKey: ctrl,
    shiftKey: shift,
    altKey: alt,
    isComposing: composing,
    bubbles: true,
    cancelable: true,
  });
}

describe('shortcutOf', () => {
  it.each<[string, Press, ReturnType<typeof shortcutOf>]>([
    ['Ctrl+1 is the first pane (Chat)', { key: '1', code: 'Digit1' }, { pane: 0 }],
    ['Ctrl+5 is the fifth pane (Settings)', { key: '5', code: 'Digit5' }, { pane: 4 }],
    ['Ctrl+1 on the number pad is the first pane too', { key: '1', code: 'Numpad1' }, { pane: 0 }],
    ['Ctrl+1 on a French keyboard (the key types &) is the first pane', { key: '&', code: 'Digit1' }, { pane: 0 }],
    ['Ctrl+6 is nothing: there are five panes', { key: '6', code: 'Digit6' }, null],
    ['Ctrl+0 is nothing', { key: '0', code: 'Digit0' }, null],
    ['1 without Ctrl is typing', { key: '1', code: 'Digit1', ctrl: false }, null],
    ['Ctrl+Shift+1 is not a pane', { key: '!', code: 'Digit1', shift: true }, null],
    ['Ctrl+Alt+1 (AltGr on many keyboards) is not a pane', { key: '1', code: 'Digit1', alt: true }, null],
    ['Ctrl+Q quits', { key: 'q', code: 'KeyQ' }, 'quit'],
    ['Ctrl+Q with Caps Lock quits', { key: 'Q', code: 'KeyQ' }, 'quit'],
    ['Ctrl+Q on a Russian keyboard (the key types й) quits', { key: 'й', code: 'KeyQ' }, 'quit'],
    ['Ctrl+A on a French keyboard (where Q sits on a US one) does not quit', { key: 'a', code: 'KeyQ' }, null],
    ['Ctrl+W closes', { key: 'w', code: 'KeyW' }, 'close'],
    ['Ctrl+Z on a French keyboard (where W sits on a US one) does not close', { key: 'z', code: 'KeyW' }, null],
    ['Ctrl+C stays copy', { key: 'c', code: 'KeyC' }, null],
    ['a key while an input method composes is the input method’s', { key: '1', code: 'Digit1', composing: true }, null],
  ])('%s', (_, press, want) => {
    expect(shortcutOf(keydown(press))).toEqual(want);
  });
});

describe('listenForShortcuts', () => {
  let pane: ReturnType<typeof vi.fn<(i: number) => void>>;
  let quit: ReturnType<typeof vi.fn<() => void>>;
  let stop: () => void;

  beforeEach(() => {
    pane = vi.fn<(i: number) => void>();
    quit = vi.fn<() => void>();
    stop = listenForShortcuts(window, { pane, quit });
  });
  afterEach(() => {
    stop();
    document.body.innerHTML = '';
  });

  /** Presses a key where the focus is (the body when nothing has it), as a person would. */
  function press(p: Press): KeyboardEvent {
    const e = keydown(p);
    (document.activeElement ?? document.body).dispatchEvent(e);
    return e;
  }

  /** A modal dialog with a field that has the focus. */
  function openDialog(parent: HTMLElement = document.body): HTMLDialogElement {
    const dialog = document.createElement('dialog');
    const input = document.createElement('input');
    dialog.append(input);
    parent.append(dialog);
    dialog.showModal();
    input.focus();
    return dialog;
  }

  it('Ctrl+2 opens Servers, also while the person types in a field', () => {
    press({ key: '2', code: 'Digit2' });
    const field = document.createElement('textarea');
    document.body.append(field);
    field.focus();
    const e = press({ key: '4', code: 'Digit4' });
    expect(pane.mock.calls).toEqual([[1], [3]]);
    expect(e.defaultPrevented).toBe(true);
  });

  it('pane shortcuts do nothing while a dialog is open', () => {
    openDialog();
    press({ key: '3', code: 'Digit3' });
    expect(pane).not.toHaveBeenCalled();
  });

  it('Ctrl+Q quits, also while a dialog is open', () => {
    press({ key: 'q', code: 'KeyQ' });
    openDialog();
    press({ key: 'q', code: 'KeyQ' });
    expect(quit).toHaveBeenCalledTimes(2);
  });

  it('Ctrl+W closes the dialog in front through its cancel event, as Escape does', () => {
    const dialog = openDialog();
    const cancels: boolean[] = [];
    dialog.addEventListener('cancel', (e) => cancels.push(e.cancelable));
    const closed = vi.fn();
    dialog.addEventListener('close', closed);
    press({ key: 'w', code: 'KeyW' });
    expect(cancels).toEqual([true]);
    expect(dialog.open).toBe(false);
    expect(closed).toHaveBeenCalledOnce();
  });

  it('Ctrl+W leaves a dialog open when its cancel handler asks first (unsaved input)', () => {
    const dialog = openDialog();
    dialog.addEventListener('cancel', (e) => e.preventDefault());
    press({ key: 'w', code: 'KeyW' });
    expect(dialog.open).toBe(true);
  });

  it('Ctrl+W closes only the inner dialog when one dialog opened another', () => {
    const outer = openDialog();
    const inner = openDialog(outer);
    press({ key: 'w', code: 'KeyW' });
    expect(inner.open).toBe(false);
    expect(outer.open).toBe(true);
    outer.querySelector('input')!.focus();
    press({ key: 'w', code: 'KeyW' });
    expect(outer.open).toBe(false);
  });

  it('Ctrl+W with no dialog open does nothing, and nothing closes the window', () => {
    const e = press({ key: 'w', code: 'KeyW' });
    expect(e.defaultPrevented).toBe(true);
    expect(pane).not.toHaveBeenCalled();
    expect(quit).not.toHaveBeenCalled();
  });

  it('a key a component already handled is left alone', () => {
    const dialog = openDialog();
    dialog.addEventListener('keydown', (e) => e.preventDefault());
    press({ key: 'w', code: 'KeyW' });
    press({ key: 'q', code: 'KeyQ' });
    expect(dialog.open).toBe(true);
    expect(quit).not.toHaveBeenCalled();
  });

  it('once stopped, no key does anything', () => {
    stop();
    press({ key: '1', code: 'Digit1' });
    press({ key: 'q', code: 'KeyQ' });
    expect(pane).not.toHaveBeenCalled();
    expect(quit).not.toHaveBeenCalled();
  });
});
