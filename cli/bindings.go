//go:build bindings

package cli

// bindingsOnly is true when the Wails CLI builds this program only to read
// its bound methods (wails generate module): the store is then not opened.
const bindingsOnly = true
