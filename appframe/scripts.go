package appframe

import (
	"strconv"
	"strings"
)

// worldName is the isolated script world the window's bridge ("external")
// is moved into. Only the relay script runs in it, in the top frame.
const worldName = "gatehouse-bridge"

// handlerName is the name of Wails' script message handler.
const handlerName = "external"

// relayScript is the user script, in the isolated world and the top frame
// only, that passes what the top frame's main world dispatches on its own
// document as the event EVENT (a string detail) to the bridge. The handler
// is taken at document start, before any of the page's scripts has run.
const relayScript = `(() => {
	const bridge = window.webkit.messageHandlers.external;
	const doc = document;
	doc.addEventListener(EVENT, (e) => {
		if (e.target === doc && typeof e.detail === "string") {
			bridge.postMessage(e.detail);
		}
	}, true);
})();`

// shimScript is the user script, in the top frame's main world only, that
// gives Wails' runtime the chrome.webview.postMessage its ipc.js looks for
// (it looks for it before webkit.messageHandlers.external, which the main
// world no longer has): it dispatches the message as the event EVENT on
// the document, for the relay. What it uses is taken at document start, so
// the page's scripts cannot change it underneath.
const shimScript = `(() => {
	const dispatch = EventTarget.prototype.dispatchEvent;
	const Custom = CustomEvent;
	const doc = document;
	const webview = Object.freeze({
		postMessage(message) {
			dispatch.call(doc, new Custom(EVENT, { detail: String(message) }));
		},
	});
	Object.defineProperty(window, "chrome", { value: Object.freeze({ webview }), enumerable: true });
})();`

// scripts returns the relay and the shim for the event named event.
func scripts(event string) (relay, shim string) {
	q := strconv.Quote(event) // a valid JavaScript string literal for these characters
	return strings.ReplaceAll(relayScript, "EVENT", q), strings.ReplaceAll(shimScript, "EVENT", q)
}

// newEventName returns an event name nobody can guess: the relay listens
// for it only in the top frame, so this is a second line of defence.
func newEventName() string { return "gatehouse-bridge-" + NewInstanceID() }
