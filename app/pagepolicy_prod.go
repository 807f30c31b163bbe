//go:build !dev

package app

// devConnectSources is empty in the production build: its page connects to
// nothing but itself.
const devConnectSources = ""
