// jsdom has HTMLDialogElement but not showModal/close; the editor and the
// confirm dialog use them, so give jsdom the small part of the behaviour the
// components rely on (the open attribute and the close event).
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.show = function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement, value?: string) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    if (value !== undefined) this.returnValue = value;
    this.dispatchEvent(new Event('close'));
  };
}

// jsdom has no inert property either; the consent dialog sets it on its body
// while it asks whether to throw the answers away. Reflect it to the
// attribute, as browsers do, so that what is inert can be seen.
if (typeof HTMLElement !== 'undefined' && !('inert' in HTMLElement.prototype)) {
  Object.defineProperty(HTMLElement.prototype, 'inert', {
    get(this: HTMLElement) {
      return this.hasAttribute('inert');
    },
    set(this: HTMLElement, on: boolean) {
      this.toggleAttribute('inert', !!on);
    },
    configurable: true,
  });
}

// jsdom has no layout, so nothing would count as shown: everything is.
if (typeof Element !== 'undefined' && !('checkVisibility' in Element.prototype)) {
  Object.defineProperty(Element.prototype, 'checkVisibility', { value: () => true, configurable: true });
}
