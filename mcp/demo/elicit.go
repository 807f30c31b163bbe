package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Schemas are kept as raw JSON so that fields reach the client in the order
// written here.
const (
	everyFieldSchema = `{
  "type": "object",
  "properties": {
    "name":      {"type": "string", "title": "Full name", "description": "As it appears on your badge", "minLength": 2, "maxLength": 60},
    "email":     {"type": "string", "format": "email", "title": "Email", "description": "Where the confirmation goes"},
    "website":   {"type": "string", "format": "uri", "title": "Website"},
    "arrival":   {"type": "string", "format": "date", "title": "Arrival date"},
    "talk":      {"type": "string", "format": "date-time", "title": "Preferred talk slot"},
    "guests":    {"type": "integer", "title": "Guests", "minimum": 0, "maximum": 4, "default": 0},
    "budget":    {"type": "number", "title": "Budget (EUR)", "minimum": 0, "maximum": 5000},
    "newsletter":{"type": "boolean", "title": "Send me the newsletter", "default": false},
    "track":     {"type": "string", "title": "Track", "oneOf": [{"const": "go", "title": "Go"}, {"const": "web", "title": "Web"}, {"const": "ops", "title": "Operations"}], "default": "go"},
    "shirt":     {"type": "string", "title": "T-shirt size", "enum": ["XS", "S", "M", "L", "XL", "XXL", "3XL"]},
    "workshops": {"type": "array", "title": "Workshops", "minItems": 1, "maxItems": 2, "items": {"anyOf": [{"const": "mcp", "title": "Writing MCP servers"}, {"const": "wails", "title": "Desktop apps with Wails"}, {"const": "tests", "title": "Testing with real peers"}]}, "default": ["mcp"]},
    "diet":      {"type": "array", "title": "Dietary needs", "items": {"type": "string", "enum": ["vegetarian", "vegan", "gluten-free"]}}
  },
  "required": ["name", "email", "arrival", "track"]
}`
	singleFieldSchema = `{"type": "object", "properties": {"city": {"type": "string", "title": "City", "description": "Which city should the forecast be for?"}}, "required": ["city"]}`
	// legacyEnumSchema is written as a 2025-06-18 server would: enumNames
	// beside enum for labels.
	legacyEnumSchema = `{"type": "object", "properties": {"priority": {"type": "string", "title": "Priority", "enum": ["p1", "p2", "p3"], "enumNames": ["Urgent", "Normal", "Whenever"], "default": "p2"}}, "required": ["priority"]}`
	// passwordSchema asks for what servers must never ask for in form mode,
	// so that the host's warning (E17) can be seen.
	passwordSchema = `{"type": "object", "properties": {"username": {"type": "string", "title": "Bank username"}, "password": {"type": "string", "title": "Bank password"}}, "required": ["username", "password"]}`
	confirmSchema  = `{"type": "object", "properties": {"confirm": {"type": "boolean", "title": "Go ahead", "default": true}}}`
)

// question is one thing a tool asks the person.
type question struct {
	key, message, schema string
}

// conversation asks a tool's questions in order and collects the answers,
// in whichever way the session's protocol allows: nested elicitation/create
// requests before 2026-07-28, input requests (multi round-trip, SEP-2322)
// from it on. With input requests the tool returns early and is called
// again with the answers so far; the earlier answers travel in requestState.
type conversation struct {
	ctx     context.Context
	req     *sdk.CallToolRequest
	answers map[string]*sdk.ElicitResult
}

func newConversation(ctx context.Context, req *sdk.CallToolRequest) *conversation {
	c := &conversation{ctx: ctx, req: req, answers: map[string]*sdk.ElicitResult{}}
	if state := req.Params.RequestState; state != "" {
		_ = json.Unmarshal([]byte(state), &c.answers)
	}
	for k, v := range req.Params.InputResponses {
		if r, ok := v.(*sdk.ElicitResult); ok {
			c.answers[k] = r
		}
	}
	return c
}

// usesInputRequests reports whether the client speaks 2026-07-28 or later.
func (c *conversation) usesInputRequests() bool {
	p := c.req.Session.InitializeParams()
	return p == nil || p.ProtocolVersion >= "2026-07-28"
}

// ask returns the answer to q, or a result the tool must return at once to
// have the client ask it (input requests), or an error.
func (c *conversation) ask(q question) (*sdk.ElicitResult, *sdk.CallToolResult, error) {
	if r, ok := c.answers[q.key]; ok {
		return r, nil, nil
	}
	params := &sdk.ElicitParams{Message: q.message, RequestedSchema: json.RawMessage(q.schema)}
	if c.usesInputRequests() {
		state, _ := json.Marshal(c.answers)
		return nil, &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{q.key: params}, RequestState: string(state)}, nil
	}
	r, err := c.req.Session.Elicit(c.ctx, params)
	if err != nil {
		return nil, nil, err
	}
	c.answers[q.key] = r
	return r, nil, nil
}

// addElicitationTools registers the tools that ask the person something.
func addElicitationTools(s *sdk.Server) {
	addAsk := func(name, title, description, message, schema string) {
		s.AddTool(&sdk.Tool{Name: name, Title: title, Description: description, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				res, pending, err := newConversation(ctx, req).ask(question{"answer", message, schema})
				if pending != nil || err != nil {
					return pending, err
				}
				return resultText(describe(res)), nil
			})
	}
	addAsk("register", "Register for the conference (every field type)",
		"Asks for one form with every field type form mode allows.",
		"Register for GopherCon Demo 2026.\nWe need a few details for your badge and the catering.", everyFieldSchema)
	addAsk("ask_city", "Ask for a city (one field)",
		"Asks for a single text field.", "Which city should I look up?", singleFieldSchema)
	addAsk("legacy_priority", "Legacy form (2025-06-18 enumNames)",
		"Asks with a select whose labels come from the legacy enumNames keyword.", "How urgent is this ticket?", legacyEnumSchema)
	addAsk("connect_bank", "Connect a bank account (asks for a password)",
		"Asks for a password in form mode, which servers must not do: the host should warn you.",
		"To import your transactions, sign in to your bank.", passwordSchema)

	s.AddTool(&sdk.Tool{Name: "plan_trip", Title: "Plan a trip (two questions in a row)",
		Description: "Asks for a city, then for a confirmation.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			c := newConversation(ctx, req)
			first, pending, err := c.ask(question{"city", "Where do you want to go?", singleFieldSchema})
			if pending != nil || err != nil {
				return pending, err
			}
			if first.Action != "accept" {
				return resultText("Trip not planned: " + describe(first)), nil
			}
			second, pending, err := c.ask(question{"confirm", fmt.Sprintf("Book a trip to %v?", first.Content["city"]), confirmSchema})
			if pending != nil || err != nil {
				return pending, err
			}
			return resultText("first: " + describe(first) + "\nsecond: " + describe(second)), nil
		})

	s.AddTool(&sdk.Tool{Name: "flood", Title: "Flood the host with requests",
		Description: "Sends many elicitation requests at once (default 30) to show the host's rate limit.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer","minimum":1,"maximum":1000,"default":30}}}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var args struct {
				Count int `json:"count"`
			}
			_ = json.Unmarshal(req.Params.Arguments, &args)
			if args.Count <= 0 {
				args.Count = 30
			}
			c := newConversation(ctx, req)
			if c.usesInputRequests() {
				// All at once as input requests; the host's limit refuses most.
				if len(c.answers) > 0 {
					return resultText(fmt.Sprintf("answered: %d", len(c.answers))), nil
				}
				all := sdk.InputRequestMap{}
				for i := range args.Count {
					all[fmt.Sprintf("q%d", i+1)] = &sdk.ElicitParams{Message: fmt.Sprintf("Flood request %d of %d", i+1, args.Count), RequestedSchema: json.RawMessage(singleFieldSchema)}
				}
				return &sdk.CallToolResult{InputRequests: all}, nil
			}
			// Older protocols: nested requests, all at once. A flood is exactly
			// what a well-behaved server would not do.
			var mu sync.Mutex
			outcomes := map[string]int{}
			var wg sync.WaitGroup
			for i := range args.Count {
				wg.Go(func() {
					params := &sdk.ElicitParams{Message: fmt.Sprintf("Flood request %d of %d", i+1, args.Count), RequestedSchema: json.RawMessage(singleFieldSchema)}
					res, err := req.Session.Elicit(ctx, params)
					key := "refused with an error"
					if err == nil {
						key = res.Action
					}
					mu.Lock()
					outcomes[key]++
					mu.Unlock()
				})
			}
			wg.Wait()
			keys := make([]string, 0, len(outcomes))
			for k := range outcomes {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var parts []string
			for _, k := range keys {
				parts = append(parts, fmt.Sprintf("%s: %d", k, outcomes[k]))
			}
			return resultText(strings.Join(parts, ", ")), nil
		})
}

// describe writes an elicitation result as "accept {...}", "decline" or "cancel".
func describe(res *sdk.ElicitResult) string {
	if res.Action != "accept" {
		return res.Action
	}
	b, _ := json.Marshal(res.Content)
	return "accept " + string(b)
}

func resultText(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}
