package demo

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Version is reported in the server's implementation info.
const Version = "1.0.0"

// EchoArgs are the arguments of the echo tool.
type EchoArgs struct {
	Message string `json:"message" jsonschema:"the text to send back"`
}

// AddArgs are the arguments of the add tool.
type AddArgs struct {
	A float64 `json:"a" jsonschema:"the first number"`
	B float64 `json:"b" jsonschema:"the second number"`
}

// ForecastArgs are the arguments of the forecast tool.
type ForecastArgs struct {
	City string `json:"city" jsonschema:"the city to forecast"`
	Days int    `json:"days,omitempty" jsonschema:"how many days, 1 to 5 (default 3)"`
}

// Forecast is the structured result of the forecast tool.
type Forecast struct {
	City string        `json:"city"`
	Days []ForecastDay `json:"days"`
}

// ForecastDay is one day of a Forecast.
type ForecastDay struct {
	Day         int    `json:"day"`
	Conditions  string `json:"conditions"`
	HighCelsius int    `json:"highCelsius"`
	LowCelsius  int    `json:"lowCelsius"`
}

// NewServer returns the demo server with its tools registered.
func NewServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "gatehouse-demo", Title: "Gatehouse demo server", Version: Version}, serverOptions())
	n := &note{text: "Nothing echoed yet."}

	sdk.AddTool(s, &sdk.Tool{
		Name:        "echo",
		Title:       "Echo",
		Description: "Sends your message back, unchanged.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in EchoArgs) (*sdk.CallToolResult, any, error) {
		n.set(in.Message)
		if err := s.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: noteURI}); err != nil {
			return nil, nil, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: in.Message}}}, nil, nil
	})

	sdk.AddTool(s, &sdk.Tool{
		Name:        "add",
		Title:       "Add two numbers",
		Description: "Adds a and b.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(_ context.Context, _ *sdk.CallToolRequest, in AddArgs) (*sdk.CallToolResult, any, error) {
		text := fmt.Sprintf("%g + %g = %g", in.A, in.B, in.A+in.B)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil, nil
	})

	sdk.AddTool(s, &sdk.Tool{
		Name:        "divide",
		Title:       "Divide",
		Description: "Divides a by b. Dividing by zero returns an error result.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(_ context.Context, _ *sdk.CallToolRequest, in AddArgs) (*sdk.CallToolResult, any, error) {
		if in.B == 0 {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "cannot divide by zero"}}}, nil, nil
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("%g", in.A/in.B)}}}, nil, nil
	})

	sdk.AddTool(s, &sdk.Tool{
		Name:        "forecast",
		Title:       "Weather forecast (made up)",
		Description: "Returns an invented forecast as structured content with an output schema.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
	}, func(_ context.Context, _ *sdk.CallToolRequest, in ForecastArgs) (*sdk.CallToolResult, Forecast, error) {
		if in.Days > 5 {
			return nil, Forecast{}, fmt.Errorf("days must be between 1 and 5, got %d", in.Days)
		}
		return nil, forecast(in), nil
	})

	sdk.AddTool(s, &sdk.Tool{
		Name:        "readme_link",
		Title:       "Link to the demo's read-me",
		Description: "Returns a resource_link item pointing at the demo server's read-me resource.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
	}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{
			&sdk.TextContent{Text: "The read-me is available as a resource:"},
			&sdk.ResourceLink{URI: readmeURI, Name: "readme", Title: "Demo server read-me", MIMEType: "text/markdown"},
			&sdk.TextContent{Text: "The elicitation specification is on the web:"},
			&sdk.ResourceLink{URI: specURL, Name: "elicitation-spec", Title: "MCP elicitation specification", MIMEType: "text/html"},
		}}, nil, nil
	})

	addElicitationTools(s)
	addURLTools(s)
	addContent(s, n)
	return s
}

const readmeURI = "gatehouse-demo://readme"

// specURL is a web link in readme_link's result, to show that links open
// only through the consent display.
const specURL = "https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation"

var readme = strings.TrimSpace(`
# Gatehouse demo server
This server runs inside Gatehouse itself (gatehouse demo-server) and offers a
few tools to try the Tools pane: echo, add, divide, forecast and readme_link.

Tools that ask you something (elicitation), to try the consent dialog:
register (every field type), ask_city, legacy_priority, connect_bank (asks for
a password: the host warns you), plan_trip (two questions) and flood (too many
at once). URL mode: connect_account (a sign-in page on this computer; its
Finish button tells the host you are done), sync_calendar (fails with -32042
until a sign-in page was finished, then the host retries it) and
lookalike_link (an address that imitates paypal.com).

Resources: this read-me, a logo (an image), a note of the last message echo
sent back (subscribe to it, then call echo) and a forecast template, gatehouse-demo://forecast/{city}
(with city suggestions). Prompt: weekend_plan (city and pace suggested).
`)

// Run serves the demo server on stdin/stdout until the client disconnects.
func Run(ctx context.Context) error {
	return NewServer().Run(ctx, &sdk.StdioTransport{})
}
