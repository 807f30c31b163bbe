package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// A scenario does, against the suite's server, what the suite expects a host
// to do; the suite's server records what it saw and judges it.
type scenario func(ctx context.Context, serverURL string, scenarioCtx map[string]any) error

// scenarios maps the suite's client scenario names (0.1.16 and
// 0.2.0-alpha.12) to what this client does. Auth scenarios (auth/...) are
// handled by scenarioFor.
var scenarios = map[string]scenario{
	// Connect (initialize, or server/discover at 2026-07-28) and list tools:
	// the manager lists tools, resources and prompts on every connection.
	"initialize":       connectOnly,
	"request-metadata": connectOnly,
	// The suite checks that listing tools did not fetch a network $ref.
	"json-schema-ref-no-deref": listTools,

	"tools_call":                          toolsCall,
	"elicitation-sep1034-client-defaults": elicitationDefaults,
	"sse-retry":                           sseRetry,
	"sep-2322-client-request-state":       requestState,
	"json-schema-2020-12-preservation":    schemaPreservation,
	"http-standard-headers":               standardHeaders,
	"http-custom-headers":                 customHeaders,
	"http-invalid-tool-headers":           invalidToolHeaders,

	// Skills extension (SEP-2640): Gatehouse does not implement it, so it
	// never calls skills/list and never reads a skill file; the suite marks
	// these checks SKIPPED. Connecting is all a host without skills does.
	"sep-2640-client-no-prefetch":        connectOnly,
	"sep-2640-client-verify-digest":      connectOnly,
	"sep-2640-client-verify-size":        connectOnly,
	"sep-2640-client-verify-frontmatter": connectOnly,
}

// unsupportedAuth are the auth/ scenarios of OAuth mechanisms Gatehouse does
// not implement (nor does the go-sdk it is built on; both suite baselines list
// them): grants without a person and a browser, and sender-constrained
// tokens. See AUTH_SCENARIOS.md.
var unsupportedAuth = map[string]string{
	"auth/client-credentials-basic":         "the client_credentials grant (SEP-1046)",
	"auth/client-credentials-jwt":           "the client_credentials grant with private_key_jwt (SEP-1046)",
	"auth/cross-app-access-complete-flow":   "enterprise-managed authorization (SEP-990)",
	"auth/enterprise-managed-authorization": "enterprise-managed authorization (SEP-990)",
	"auth/dpop":                             "DPoP sender-constrained tokens (SEP-1932)",
	"auth/dpop-nonce":                       "DPoP sender-constrained tokens (SEP-1932)",
	"auth/wif-jwt-bearer":                   "the JWT-bearer grant of workload identity federation (SEP-1933)",
}

func scenarioFor(name string) (scenario, bool) {
	if strings.HasPrefix(name, "auth/") {
		if what, ok := unsupportedAuth[name]; ok {
			return func(context.Context, string, map[string]any) error {
				return fmt.Errorf("%s: %w by Gatehouse", what, errUnsupported)
			}, true
		}
		return signInAndCall, true
	}
	s, ok := scenarios[name]
	return s, ok
}

// withHost connects Gatehouse to the scenario server, runs body, and
// disconnects. On failure the server's log goes to stderr.
func withHost(ctx context.Context, serverURL string, body func(*host) error) error {
	return withOAuthHost(ctx, serverURL, nil, body)
}

// withOAuthHost is withHost with sign-in client settings for the server.
func withOAuthHost(ctx context.Context, serverURL string, oauth *store.OAuthConfig, body func(*host) error) error {
	h, err := startHost(ctx, serverURL, oauth)
	if err != nil {
		return err
	}
	defer h.close()
	if body == nil {
		return nil
	}
	if err := body(h); err != nil {
		h.dumpLog()
		return err
	}
	return nil
}

// clientMetadataURL is the Client ID Metadata Document URL the suite expects
// as client_id when the authorization server supports CIMD (auth/basic-cimd
// fails any other). It is set for every auth/ scenario, as a person sets it
// in the server's sign-in settings: Gatehouse (through go-sdk) uses it only
// with an authorization server that advertises
// client_id_metadata_document_supported, and otherwise a pre-registered
// client when there is one, and dynamic registration last.
const clientMetadataURL = "https://conformance-test.local/client-metadata.json"

// oauthConfigFor is the server's sign-in client settings for an auth/
// scenario: the CIMD URL, and the pre-registered client the suite hands over
// in MCP_CONFORMANCE_CONTEXT (client_id, client_secret) when it does.
func oauthConfigFor(scenarioCtx map[string]any) *store.OAuthConfig {
	cfg := &store.OAuthConfig{ClientMetadataURL: clientMetadataURL}
	if id, ok := scenarioCtx["client_id"].(string); ok {
		cfg.ClientID = id
		cfg.ClientSecret, _ = scenarioCtx["client_secret"].(string)
		issuer, _ := scenarioCtx["issuer"].(string)
		logf("pre-registered client %q from the context (issuer %s)", id, valueOr(issuer, "not given"))
	}
	return cfg
}

// stepUpSignIns is how often the stand-in person signs in again when a
// call says the server needs sign-in (a step-up): the suite's retry-limit
// scenario wants at most three authorization requests in all.
const stepUpSignIns = 2

// signInAndCall is every auth/ scenario Gatehouse supports: connect (the
// server answers 401, the server needs sign-in, the person signs in), list
// the tools, and call test-tool. An authorization server that changed is
// met inside these requests. A step-up (403 insufficient_scope on the call)
// leaves the server needing sign-in, as any sign-in the person did not ask
// for (issue 22): the stand-in person signs in again, and the call is made
// again. The suite judges what its servers saw; refusals end here with an
// error.
func signInAndCall(ctx context.Context, serverURL string, scenarioCtx map[string]any) error {
	return withOAuthHost(ctx, serverURL, oauthConfigFor(scenarioCtx), func(h *host) error {
		tools, err := h.manager.Tools(h.server.ID)
		if err != nil {
			return err
		}
		logf("tools: %s", toolNames(tools))
		err = h.callTool(ctx, "test-tool", map[string]any{})
		for i := 0; i < stepUpSignIns && errors.Is(err, mcp.ErrNeedsSignIn); i++ {
			logf("the call needs sign-in (%v); signing in again", err)
			if err = h.signIn(ctx); err == nil {
				err = h.callTool(ctx, "test-tool", map[string]any{})
			}
		}
		return err
	})
}

func connectOnly(ctx context.Context, serverURL string, _ map[string]any) error {
	return withHost(ctx, serverURL, nil)
}

func listTools(ctx context.Context, serverURL string, _ map[string]any) error {
	return withHost(ctx, serverURL, func(h *host) error {
		tools, err := h.manager.Tools(h.server.ID)
		if err != nil {
			return err
		}
		if len(tools) == 0 {
			return errors.New("the server's tools were not listed (or it has none)")
		}
		logf("tools: %s", toolNames(tools))
		return nil
	})
}

func toolsCall(ctx context.Context, serverURL string, _ map[string]any) error {
	return withHost(ctx, serverURL, func(h *host) error {
		if _, err := h.manager.Tool(h.server.ID, "add_numbers"); err != nil {
			return err
		}
		return h.callTool(ctx, "add_numbers", map[string]any{"a": 5, "b": 3})
	})
}

// elicitationDefaults: the tool asks a form with a default for every field
// and the person accepts it as shown (SEP-1034).
func elicitationDefaults(ctx context.Context, serverURL string, _ map[string]any) error {
	return withHost(ctx, serverURL, func(h *host) error {
		if err := h.callTool(ctx, "test_client_elicitation_defaults", nil); err != nil {
			return err
		}
		if h.answers.requests() == 0 {
			return errors.New("the tool returned but no elicitation reached the answerer")
		}
		return nil
	})
}

// sseRetry: the server closes the tool call's SSE stream after a priming
// event with retry: 500; the client must reconnect with GET (and
// Last-Event-ID) after that delay and get the result there (SEP-1699).
func sseRetry(ctx context.Context, serverURL string, _ map[string]any) error {
	return withHost(ctx, serverURL, func(h *host) error {
		return h.callTool(ctx, "test_reconnection", nil)
	})
}

// requestState (SEP-2322, 2026-07-28): tools answer with input_required and
// an embedded elicitation; the client fulfils it (through the broker and the
// answerer) and retries with inputResponses and the requestState echoed
// unchanged, under a new JSON-RPC id.
func requestState(ctx context.Context, serverURL string, _ map[string]any) error {
	return withHost(ctx, serverURL, func(h *host) error {
		var errs []error
		for _, name := range []string{"test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"} {
			if err := h.callTool(ctx, name, nil); err != nil {
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	})
}

// schemaPreservation: the client echoes the focal tool's inputSchema, as the
// manager holds it, back through json_schema_echo; the suite checks that the
// JSON Schema 2020-12 keywords survived (SEP-1613, SEP-2106).
func schemaPreservation(ctx context.Context, serverURL string, _ map[string]any) error {
	return withHost(ctx, serverURL, func(h *host) error {
		focal, err := h.manager.Tool(h.server.ID, "json_schema_2020_12_tool")
		if err != nil {
			return err
		}
		var schema map[string]any
		b, err := json.Marshal(focal.InputSchema)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &schema); err != nil {
			return fmt.Errorf("the tool's inputSchema is not a JSON object: %w", err)
		}
		return h.callTool(ctx, "json_schema_echo", map[string]any{"schema": schema})
	})
}

// standardHeaders (SEP-2243): the server records Mcp-Method on every POST
// and Mcp-Name on tools/call, resources/read and prompts/get. The person
// calls every tool, reads the first resource listed and gets the first
// prompt, as in the window.
func standardHeaders(ctx context.Context, serverURL string, _ map[string]any) error {
	return withHost(ctx, serverURL, func(h *host) error {
		tools, err := h.manager.Tools(h.server.ID)
		if err != nil {
			return err
		}
		var errs []error
		for _, t := range tools {
			if err := h.callTool(ctx, t.Name, nil); err != nil {
				errs = append(errs, err)
			}
		}
		list, err := h.manager.ResourceList(ctx, h.server.ID)
		switch {
		case err != nil:
			errs = append(errs, err)
		case len(list.Resources) == 0:
			errs = append(errs, errors.New("the server listed no resources"))
		default:
			res, err := h.manager.ReadResource(ctx, h.server.ID, list.Resources[0].URI)
			if err != nil {
				errs = append(errs, err)
			} else {
				logf("read %s: %d items", list.Resources[0].URI, len(res.Contents))
			}
		}
		prompts, err := h.manager.Prompts(h.server.ID)
		switch {
		case err != nil:
			errs = append(errs, err)
		case len(prompts) == 0:
			errs = append(errs, errors.New("the server listed no prompts"))
		default:
			res, err := h.manager.GetPrompt(ctx, h.server.ID, prompts[0].Name, nil)
			if err != nil {
				errs = append(errs, err)
			} else {
				logf("prompt %s: %d messages", prompts[0].Name, len(res.Messages))
			}
		}
		return errors.Join(errs...)
	})
}

// customHeaders (SEP-2243): the tool calls the suite lists in the context
// (toolCalls), whose x-mcp-header parameters must be mirrored into
// Mcp-Param-* headers.
func customHeaders(ctx context.Context, serverURL string, scenarioCtx map[string]any) error {
	calls, err := toolCallsOf(scenarioCtx)
	if err != nil {
		return err
	}
	return withHost(ctx, serverURL, func(h *host) error {
		var errs []error
		for _, c := range calls {
			if err := h.callTool(ctx, c.Name, c.Arguments); err != nil {
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	})
}

// invalidToolHeaders (SEP-2243): tools with a malformed x-mcp-header must be
// left out of the list; the person then calls every tool they are shown. A
// call the SDK refuses locally is not a failure of the run.
func invalidToolHeaders(ctx context.Context, serverURL string, _ map[string]any) error {
	return withHost(ctx, serverURL, func(h *host) error {
		tools, err := h.manager.Tools(h.server.ID)
		if err != nil {
			return err
		}
		logf("tools offered: %s", toolNames(tools))
		called := false
		for _, t := range tools {
			if err := h.callTool(ctx, t.Name, stringArgs(t)); err != nil {
				logf("call %s refused: %v", t.Name, err)
				continue
			}
			called = called || t.Name == "valid_tool"
		}
		if !called {
			return errors.New("valid_tool was not offered or its call failed")
		}
		return nil
	})
}

type toolCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// toolCallsOf reads {"toolCalls": [{"name": ..., "arguments": {...}}]}.
func toolCallsOf(scenarioCtx map[string]any) ([]toolCall, error) {
	raw, ok := scenarioCtx["toolCalls"]
	if !ok {
		return nil, errors.New("MCP_CONFORMANCE_CONTEXT has no toolCalls")
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	var calls []toolCall
	if err := json.Unmarshal(b, &calls); err != nil {
		return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT toolCalls: %w", err)
	}
	return calls, nil
}

// stringArgs fills every string property of a tool's input schema with a
// plain value, as a person would type one.
func stringArgs(t *sdk.Tool) map[string]any {
	args := map[string]any{}
	var schema struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	b, _ := json.Marshal(t.InputSchema)
	if json.Unmarshal(b, &schema) != nil {
		return args
	}
	for name, p := range schema.Properties {
		if p.Type == "string" {
			args[name] = "us-west1"
		}
	}
	return args
}

func toolNames(tools []*sdk.Tool) string {
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// resultText joins a tool result's text content, for the log.
func resultText(content []sdk.Content) string {
	var parts []string
	for _, c := range content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		default:
			b, _ := json.Marshal(c)
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, " ")
}
