//go:build !dev

package cli

// wailsReadsFlags is false in the production (and bindings) build: its Wails
// runtime reads no command line, so every argument is Gatehouse's.
const wailsReadsFlags = false
