//go:build dev

package cli

// wailsReadsFlags is true in the development build, whose Wails runtime reads
// its own flags (-assetdir, -devserver, -frontenddevserverurl, -loglevel; see
// frontend/e2e/helpers.mjs) from the command line.
const wailsReadsFlags = true
