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
	s, client := servedTo(t, wait)
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

// A stop names a tool the server serves: one of a name it does not serve
// is refused with a sentence, and nothing is kept of it (a client could
// otherwise grow its session's record of stopped tools without end).
func TestServer_StopOfAToolItDoesNotServeIsRefused(t *testing.T) {
	wait := NewTool("wait", "Returns at once.", func(context.Context, struct{}) (struct{}, error) { return struct{}{}, nil })
	s, client := servedTo(t, wait)
	t.Cleanup(func() { _ = s.Close() })
	for _, tc := range []struct {
		tool    string
		refused bool
	}{
		{"wait", false},
		{ToolFinishPage, false},
		{"no-such-tool", true},
		{"", true},
	} {
		res, err := client.CallTool(context.Background(), &sdk.CallToolParams{Name: ToolStop, Arguments: Stop{Tool: tc.tool}})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError != tc.refused {
			t.Errorf("stop %q: refused %v, want %v (%+v)", tc.tool, res.IsError, tc.refused, res.Content)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, se := range s.sessions {
		if len(se.stopped) != 2 {
			t.Errorf("the session keeps %d stopped tools, want the 2 it serves: %v", len(se.stopped), se.stopped)
		}
	}
}

// servedTo returns a server of tools, on a real data file, and a client
// connected to it in memory; the client closes when the test ends.
func servedTo(t *testing.T, tools ...Tool) (*Server, *sdk.ClientSession) {
	t.Helper()
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := NewServer(Options{Broker: mcp.NewBroker(mcp.BrokerOptions{Store: st}), Tools: tools})
	serverEnd, clientEnd := sdk.NewInMemoryTransports()
	if _, err := s.Connect(context.Background(), serverEnd); err != nil {
		t.Fatal(err)
	}
	client, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(context.Background(), clientEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	return s, client
}
