package gateway

import (
	"context"
	"os"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/gateway/pipe"
)

// TestGateway_TheClientsOwnPipesAreHandedOver: `gatehouse gateway` whose
// input and output are pipes (as every app launching an MCP server gives)
// hands them to the app, which serves the session on them directly; the
// session ends when the client closes its end, or when the other app stops
// `gatehouse gateway`; and the pipe process ends with the session.
func TestGateway_TheClientsOwnPipesAreHandedOver(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	f.add(t, "Everything", "everything")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	data := t.TempDir()
	path, err := applink.GatewaySocketPath(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.gw.ServeUnix(path); err != nil {
		t.Fatal(err)
	}
	type launched struct {
		cs     *sdk.ClientSession
		toGw   *os.File // the client's end of the gateway's stdin
		stop   context.CancelFunc
		exited chan error
	}
	launch := func(t *testing.T) launched {
		t.Helper()
		inR, inW, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		outR, outW, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		exited := make(chan error, 1)
		go func() {
			err := pipe.Run(ctx, pipe.Options{DataDir: data, Stdin: inR, Stdout: outW})
			inR.Close() // as the process's exit would
			outW.Close()
			exited <- err
		}()
		cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "piped-agent", Version: "1"}, nil).Connect(cctx,
			&sdk.IOTransport{Reader: outR, Writer: inW}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return launched{cs: cs, toGw: inW, stop: stop, exited: exited}
	}
	ended := func(t *testing.T, l launched, what string) {
		t.Helper()
		select {
		case err := <-l.exited:
			if err != nil {
				t.Errorf("%s: gatehouse gateway ended with %v", what, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: gatehouse gateway did not end", what)
		}
		deadline := time.Now().Add(10 * time.Second)
		for len(f.gw.connections()) > 0 {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the app still serves the session", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	l := launch(t)
	res, err := l.cs.CallTool(ctx, &sdk.CallToolParams{Name: "Everything__echo", Arguments: map[string]any{"message": "handed"}})
	if err != nil || res.IsError || resultText(res) != "Echo: handed" {
		t.Fatalf("a call on the handed-over pipes: %+v, %v", res, err)
	}
	if n := f.gw.handedOver.Load(); n != 1 {
		t.Errorf("%d sessions were handed over, want 1 (the pipe copied the messages itself)", n)
	}
	l.toGw.Close() // the client ends the session
	ended(t, l, "the client closed its end")

	l = launch(t)
	if _, err := l.cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	l.stop() // the other app stops gatehouse gateway
	ended(t, l, "gatehouse gateway was stopped")
	l.cs.Close()
}
