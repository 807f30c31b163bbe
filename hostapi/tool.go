package hostapi

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Tool is one more of the CLI's commands that the app serves, with types
// of its own (made with NewTool): the app knows its services' types, which
// this package, below the app, does not.
type Tool struct {
	add func(*sdk.Server)
}

// NewTool makes a Tool named name whose arguments are an In and whose
// result is an Out, both JSON objects. An error is a result marked as an
// error whose structured content is a Failure, as for the other tools.
func NewTool[In, Out any](name, description string, run func(ctx context.Context, in In) (Out, error)) Tool {
	return Tool{add: func(s *sdk.Server) {
		addTool(s, name, description, func(ctx context.Context, _ *sdk.CallToolRequest, in In) (Out, error) { return run(ctx, in) })
	}}
}

// Items is the result of a tool that lists: JSON results are objects.
type Items[T any] struct {
	Items []T `json:"items"`
}
