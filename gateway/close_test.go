package gateway

import (
	"context"
	"fmt"
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
	gw, clientEnd := servedOnAPipe(t, DefaultLimits)
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
		t.Fatal("Close still waits for a client that stopped reading after 10 s")
	}
}

// A client that keeps sending requests but never reads the answers is
// dropped once an answer has waited Limits.AnswerWait for it: before,
// each answer waited in a goroutine of its own, holding its result, for
// as long as the client stayed connected.
func TestGateway_DropsAClientThatNeverReadsItsAnswers(t *testing.T) {
	limits := DefaultLimits
	limits.AnswerWait = 300 * time.Millisecond
	_, clientEnd := servedOnAPipe(t, limits)
	send := func(line string) error {
		_ = clientEnd.SetWriteDeadline(time.Now().Add(10 * time.Second))
		_, err := clientEnd.Write([]byte(line + "\n"))
		return err
	}
	if err := send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"deaf","version":"1"}}}`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := 1; time.Since(start) < 10*time.Second; i++ {
		if err := send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)); err != nil {
			if waited := time.Since(start); waited < limits.AnswerWait {
				t.Fatalf("dropped after %s, before an answer waited %s: %v", waited, limits.AnswerWait, err)
			}
			return // dropped: the gateway no longer reads it
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("10 s later, the gateway still keeps the answers of a client that reads none")
}

// servedOnAPipe is a gateway of no servers with limits, serving one client
// on a net.Pipe, and the client's end: with no buffer, each write waits for
// its reader.
func servedOnAPipe(t *testing.T, limits Limits) (*Gateway, net.Conn) {
	t.Helper()
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	broker := mcp.NewBroker(mcp.BrokerOptions{Store: st})
	m := mcp.NewManager(mcp.Options{ClientName: "gatehouse-test", Asker: broker})
	gw := New(Options{Store: st, Manager: m, Broker: broker, Version: "test", Limits: limits})
	gatewayEnd, clientEnd := net.Pipe()
	// The client's end first: a Close still waiting for it then ends, so that the test can.
	t.Cleanup(func() { clientEnd.Close(); gw.Close(); m.Close(); broker.FlushHistory(); st.Close() })
	if _, err := gw.Serve(context.Background(), gatewayEnd, gatewayEnd, Launcher{}); err != nil {
		t.Fatal(err)
	}
	return gw, clientEnd
}
