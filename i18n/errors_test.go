package i18n

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// errorSentence reports whether key names an error a person reads as a
// sentence of its own: the window shows it alone (an alert, a tool's failed
// call, a dialog's problem), so it starts with a capital (issue 26). The
// command line's own messages (cli.*) follow "gatehouse: " and stay lower
// case, as do labels and fragments put inside other sentences (mcp.status.*,
// mcp.history.*, list items).
func errorSentence(key string) bool {
	parts := strings.Split(key, ".")
	if len(parts) < 3 || parts[0] == "cli" {
		return false
	}
	for _, p := range parts[1 : len(parts)-1] {
		if p == "error" {
			return true
		}
	}
	switch {
	case strings.HasPrefix(key, "mcp.broker."), strings.HasPrefix(key, "mcp.url."):
		return true
	case strings.HasPrefix(key, "mcp.") && (strings.HasSuffix(key, "Failed") || strings.HasSuffix(key, ".failed") || strings.HasSuffix(key, "FailedBecause") || strings.HasSuffix(key, ".failedBecause")):
		return !strings.HasPrefix(key, "mcp.status.") && !strings.HasPrefix(key, "mcp.history.")
	}
	return false
}

func TestErrorSentence(t *testing.T) {
	tests := []struct {
		key  string
		want bool
	}{
		{"chat.error.empty", true},
		{"mcp.error.notConnected", true},
		{"mcp.broker.notWaiting", true},
		{"mcp.url.refused", true},
		{"mcp.resources.readFailed", true},
		{"mcp.signin.failedBecause", true},
		{"mcp.complete.failed", true},
		{"cli.connectFailed", false},
		{"cli.error.something", false},
		{"mcp.status.lookupFailed", false},
		{"mcp.history.modelFailed", false},
		{"call.failed", false},
		{"tools.state.error", false},
		{"error", false},
	}
	for _, tt := range tests {
		if got := errorSentence(tt.key); got != tt.want {
			t.Errorf("errorSentence(%q) = %v, want %v", tt.key, got, tt.want)
		}
	}
}

// TestCatalogue_ErrorSentencesStartWithACapital fails when an English error
// sentence starts lower-case ("the server is not connected"). A sentence may
// start with a placeholder ("{server}: …"), whose value decides, after an
// opening quotation mark or not.
func TestCatalogue_ErrorSentencesStartWithACapital(t *testing.T) {
	checked := 0
	for key, tmpl := range catalogue(English) {
		if !errorSentence(key) {
			continue
		}
		checked++
		tmpl = strings.TrimLeft(tmpl, "“‘\"'(")
		if strings.HasPrefix(tmpl, "{") {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(tmpl); !unicode.IsUpper(r) {
			t.Errorf("%s starts lower-case: %q", key, tmpl)
		}
	}
	// The catalogue has dozens; a handful means errorSentence stopped matching them.
	if checked < 40 {
		t.Errorf("only %d error sentences checked; errorSentence no longer recognises the catalogue's keys", checked)
	}
}
