package gateway

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// The app quitting closes the gateway even when a client has stopped
// reading what the gateway writes to it (a terminal agent suspended, an
// app hung with its pipe full): before, the session waited for its
// answer's write, which waited for the client, and the app never exited.
func TestGateway_CloseDoesNotWaitForAClientThatStoppedReading(t *testing.T) {
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	broker := mcp.NewBroker(mcp.BrokerOptions{Store: st})
	m := mcp.NewManager(mcp.Options{ClientName: "gatehouse-test", Asker: broker})
	gw := New(Options{Store: st, Manager: m, Broker: broker, Version: "test"})
	gatewayEnd, clientEnd := net.Pipe() // no buffer: each write waits for its reader
	t.Cleanup(func() { clientEnd.Close(); m.Close(); broker.FlushHistory(); st.Close() })
	if _, err := gw.Serve(context.Background(), gatewayEnd, gatewayEnd, Launcher{}); err != nil {
		t.Fatal(err)
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"stuck","version":"1"}}}` + "\n"
	if _, err := clientEnd.Write([]byte(initialize)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the answer is on its way, and stuck: nobody reads it

	closed := make(chan error, 1)
	go func() { closed <- gw.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		clientEnd.Close() // lets the hung Close end, so the test can
		t.Fatal("Close still waits for a client that stopped reading after 10 s")
	}
}
