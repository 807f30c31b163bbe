package app

import "github.com/gatehouse-app/gatehouse/i18n"

// SignedIn is what SignIn did: the server's name as saved, and whether it
// was signed in already.
type SignedIn struct {
	Name    string `json:"name"`
	Already bool   `json:"already"`
}

// Argument and result objects of the Commands.
type (
	// ServerRow is a server as `gatehouse servers list` shows it, and as
	// `servers add` says it added it.
	ServerRow struct {
		Name      string `json:"name"`
		Enabled   bool   `json:"enabled"`
		Transport string `json:"transport"`
		// Stdio is true for a server the app starts as a program;
		// InheritEnv then says whether it gets the app's whole environment.
		Stdio      bool   `json:"stdio"`
		InheritEnv bool   `json:"inheritEnv"`
		Where      string `json:"where"` // the command line or the URL
	}
	// CLICall is `call`'s arguments: Arguments is a JSON object as typed,
	// "" for none.
	CLICall struct {
		Server    string `json:"server"`
		Tool      string `json:"tool"`
		Arguments string `json:"arguments,omitempty"`
	}
	// CLICallResult is `call`'s result: the tool result view (a
	// ToolResultView, typed any as its tree of visible values is recursive,
	// which its JSON schema cannot say: a client decodes it into the value
	// Result points to), and the web pages of the call that ended before
	// it, by the elicitationId they were asked with. Their notices were
	// sent before the result, but a client handles notifications after its
	// results: it waits for these before it waits for pages still open.
	CLICallResult struct {
		Result     any      `json:"result"`
		EndedPages []string `json:"endedPages,omitempty"`
		// Notices say what the server was seen doing during the call (a
		// flood refused unseen), for the terminal to say too.
		Notices []i18n.Message `json:"notices,omitempty"`
	}
	// CLIName is a provider, server or conversation named on the command line.
	CLIName struct {
		Name string `json:"name"`
	}
	// CLIPolicy is `policies set`'s arguments.
	CLIPolicy struct {
		Server string `json:"server"`
		Tool   string `json:"tool,omitempty"`
		Mode   string `json:"mode"`
	}
	// CLITrust is `policies trust`'s arguments.
	CLITrust struct {
		Server  string `json:"server"`
		Trusted bool   `json:"trusted"`
	}
	// CLITested is `providers test`'s result.
	CLITested struct {
		Name   string     `json:"name"`
		Result TestResult `json:"result"`
	}
	// CLIText is a text result.
	CLIText struct {
		Text string `json:"text"`
	}
	// CLIRead is `read`'s arguments.
	CLIRead struct {
		Server string `json:"server"`
		URI    string `json:"uri"`
	}
	// CLIPrompt is `prompt`'s arguments: Arguments is a JSON object as
	// typed, "" for none.
	CLIPrompt struct {
		Server    string `json:"server"`
		Name      string `json:"name"`
		Arguments string `json:"arguments,omitempty"`
	}
	// CLIRoot is `servers roots SERVER add|remove PATH`'s arguments.
	CLIRoot struct {
		Server string `json:"server"`
		Path   string `json:"path"`
	}
	// CLIRoots are the folders a server may see, and its name as saved.
	CLIRoots struct {
		Name  string   `json:"name"`
		Roots []string `json:"roots"`
	}
	// CLIChatTurn is a chat turn's arguments.
	CLIChatTurn struct {
		Provider string `json:"provider,omitempty"`
		Message  string `json:"message"`
	}
	// CLIChatTurnEnded is a chat turn's result: how many notifications
	// told the turn (the caller waits for the last before it ends).
	CLIChatTurnEnded struct {
		Notices int `json:"notices"`
	}
	// CLINotConnected is a server that did not connect for a chat turn.
	CLINotConnected struct {
		Server string       `json:"server"`
		Why    i18n.Message `json:"why"`
	}
)

// _meta keys of the notifications/progress of a chat turn: each carries
// one of them, as JSON text so that a tool call's arguments arrive exactly
// as the model wrote them. The notification's own message is the model's
// text, for any client.
const (
	// ChatEventMeta is an event of the turn (a ChatEvent).
	ChatEventMeta = "gatehouse.dev/chatEvent"
	// ChatStartedMeta is the turn's new conversation (its ID).
	ChatStartedMeta = "gatehouse.dev/conversation"
	// ChatNotConnectedMeta is a server left out (a CLINotConnected).
	ChatNotConnectedMeta = "gatehouse.dev/notConnected"
)

// ResourceData is a whole read of a resource, for the command line.
type ResourceData struct {
	URI      string         `json:"uri"`
	Contents []ResourceItem `json:"contents"`
}

// ResourceItem is one item of a ResourceData: its Text (KindText,
// KindJSON pretty-printed) or its bytes in base64 (Data).
type ResourceItem struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType"`
	Kind     string `json:"kind"`
	Size     int    `json:"size"`
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"`
}
