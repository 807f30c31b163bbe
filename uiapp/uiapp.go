// Package uiapp reads what a server declares of its interfaces (MCP Apps,
// io.modelcontextprotocol/ui, specification 2026-01-26): a tool's
// _meta.ui (its ui:// resource and who may call it), the ui:// resource's
// content (text/html;profile=mcp-app, bounded), and the resource's own
// _meta.ui (csp, permissions, prefersBorder), from which it builds the
// Content-Security-Policy the app runs under.
//
// It is the one reading of _meta.ui in Gatehouse: the chat (which tools the
// model is offered), the Tools pane and the app host all ask it. Everything
// it reads came from a server and is a claim; a declared network origin that
// is not plainly an https/wss origin (or http/ws on loopback) is dropped,
// never passed on into the policy.
package uiapp

import (
	"mime"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// MIMEType is the media type of an app's resource.
const MIMEType = "text/html;profile=mcp-app"

// Bounds of what a server's declaration may be.
const (
	// MaxResourceBytes bounds an app's HTML (text, or a blob decoded).
	MaxResourceBytes = 5 << 20
	// MaxURILength bounds a tool's resourceUri.
	MaxURILength = 2048
)

// Visibility values of _meta.ui.visibility.
const (
	VisibleToModel = "model"
	VisibleToApp   = "app"
)

// Tool is what a tool declares of its interface.
type Tool struct {
	// ResourceURI is its ui:// resource; "" when it has no interface (or
	// declares one that is not a ui:// URI).
	ResourceURI string
	// ForModel is whether a model may be offered the tool, ForApp whether
	// its server's app may call it (_meta.ui.visibility, by default both).
	ForModel, ForApp bool
}

// HasApp reports whether the tool has an interface to show.
func (t Tool) HasApp() bool { return t.ResourceURI != "" }

// ReadTool reads a tool's _meta: _meta.ui.resourceUri (or the deprecated
// flat key _meta["ui/resourceUri"]) and _meta.ui.visibility. A visibility
// that is not a list is ignored (the default, both); a list holds only the
// values it names.
func ReadTool(meta map[string]any) Tool {
	t := Tool{ForModel: true, ForApp: true}
	ui, _ := meta["ui"].(map[string]any)
	uri, _ := ui["resourceUri"].(string)
	if uri == "" {
		uri, _ = meta["ui/resourceUri"].(string)
	}
	if validResourceURI(uri) {
		t.ResourceURI = uri
	}
	if vis, ok := ui["visibility"].([]any); ok {
		t.ForModel = slices.Contains(vis, any(VisibleToModel))
		t.ForApp = slices.Contains(vis, any(VisibleToApp))
	}
	return t
}

// validResourceURI reports whether uri is a ui:// URI Gatehouse will read:
// bounded, UTF-8, with no spaces or control characters.
func validResourceURI(uri string) bool {
	if len(uri) <= len("ui://") || len(uri) > MaxURILength || !utf8.ValidString(uri) {
		return false
	}
	if !strings.EqualFold(uri[:len("ui://")], "ui://") {
		return false
	}
	return !strings.ContainsFunc(uri, func(r rune) bool { return r <= ' ' || r == 0x7f })
}

// IsAppMIME reports whether a media type is MIMEType, with any spacing,
// case and other parameters.
func IsAppMIME(mediaType string) bool {
	t, params, err := mime.ParseMediaType(mediaType)
	return err == nil && t == "text/html" && strings.EqualFold(params["profile"], "mcp-app")
}

// Content checks one content item of a read of an app's resource (text, or
// a blob the SDK decoded) and returns its HTML. uri names the resource in
// the sentences.
func Content(uri, mediaType, text string, blob []byte, isBlob bool) ([]byte, error) {
	if !IsAppMIME(mediaType) {
		return nil, i18n.Err("apps.error.notApp", "uri", uri, "type", shown(mediaType))
	}
	body := []byte(text)
	if isBlob {
		body = blob
	}
	switch {
	case len(body) == 0:
		return nil, i18n.Err("apps.error.empty", "uri", uri)
	case len(body) > MaxResourceBytes:
		return nil, i18n.Err("apps.error.tooBig", "uri", uri, "size", len(body), "max", MaxResourceBytes)
	}
	return body, nil
}

// shown is a server's string as a sentence quotes it: bounded, and "(none)"
// when empty.
func shown(s string) string {
	if s == "" {
		return "(none)"
	}
	if len(s) > 80 {
		cut := 80
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}
