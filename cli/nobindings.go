//go:build !bindings

package cli

const bindingsOnly = false
