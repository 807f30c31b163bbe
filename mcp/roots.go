package mcp

import (
	"net/url"
	"path/filepath"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Roots (MCP's roots capability) are the folders the person lets a server
// see: none unless they chose some (store.Server.Roots). Gatehouse declares
// roots with listChanged to every server; the go-sdk answers roots/list (also
// as a 2026-07-28 input request) from the client's list, and a change is
// made on the live connection's client, which sends
// notifications/roots/list_changed, without reconnecting.

// RootURI is the file:// URI of a folder's absolute path, as servers see it.
func RootURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Clean(path))}).String()
}

// rootsOf returns the roots of folders, named after each folder.
func rootsOf(folders []string) []*sdk.Root {
	roots := make([]*sdk.Root, 0, len(folders))
	for _, f := range folders {
		roots = append(roots, &sdk.Root{URI: RootURI(f), Name: filepath.Base(f)})
	}
	return roots
}
