package applink

import (
	"context"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// The app quitting (Core.Close → StopCLI) ends the command line's calls
// still running, and does not wait for them to end on their own: a call
// waiting for a server that never answers, or for a question nobody
// answers in a terminal, would hold the app's exit forever.
func TestServer_CloseEndsRunningCalls(t *testing.T) {
	began, giveUp := make(chan struct{}), make(chan struct{})
	wait := NewTool("wait", "Waits until its call ends.", func(ctx context.Context, _ struct{}) (struct{}, error) {
		close(began)
		select {
		case <-ctx.Done():
		case <-giveUp: // the test is over: a Close that hangs is not left hanging
		}
		return struct{}{}, ctx.Err()
	})
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := NewServer(Options{Broker: mcp.NewBroker(mcp.BrokerOptions{Store: st}), Tools: []Tool{wait}})
	serverEnd, clientEnd := sdk.NewInMemoryTransports()
	if _, err := s.Connect(context.Background(), serverEnd); err != nil {
		t.Fatal(err)
	}
	client, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(context.Background(), clientEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	t.Cleanup(func() { close(giveUp) }) // first
	go func() { _, _ = client.CallTool(context.Background(), &sdk.CallToolParams{Name: "wait"}) }()
	select {
	case <-began:
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not begin")
	}

	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close still waits for a running call after 10 s")
	}
}
