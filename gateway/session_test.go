package gateway

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestGateway_ProgressReachesTheClient: the server's progress on a call
// that asked for it reaches the client, with its token.
func TestGateway_ProgressReachesTheClient(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	f.add(t, "Everything", "everything")
	var mu sync.Mutex
	var got []*sdk.ProgressNotificationParams
	cs := f.connect(t, clientOptions{revision: "2025-11-25", sdk: &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, req.Params)
			mu.Unlock()
		}}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	params := &sdk.CallToolParams{Name: "Everything__trigger-long-running-operation", Arguments: map[string]any{"duration": 1, "steps": 4}}
	params.SetProgressToken("p-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("call: %+v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 {
		t.Fatal("no progress reached the client")
	}
	for _, p := range got {
		if p.ProgressToken != "p-1" || p.Total != 4 {
			t.Errorf("progress %+v", p)
		}
	}
}

// TestGateway_AClientLeavingCancelsItsCall: a client that disconnects
// while its call runs cancels the call on the server at once; History says
// so.
func TestGateway_AClientLeavingCancelsItsCall(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	f.add(t, "Everything", "everything")
	// The client's end of the connection closes, as when its process
	// ends (the go-sdk's own Close would wait for the call first).
	clientEnd, gatewayEnd := net.Pipe()
	if _, err := f.gw.Serve(context.Background(), gatewayEnd, gatewayEnd, launcher); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "leaver"}, nil).Connect(ctx, &sdk.IOTransport{Reader: clientEnd, Writer: clientEnd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		_, _ = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "Everything__trigger-long-running-operation",
			Arguments: map[string]any{"duration": 30, "steps": 3}})
	}()
	time.Sleep(500 * time.Millisecond) // the call is on the server
	start := time.Now()
	clientEnd.Close()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, e := range f.history(t) {
			if e.Mode == mcp.KindToolRun {
				if e.Outcome != store.OutcomeCancelled || e.Detail.Key != "gateway.history.clientCancelled" {
					t.Fatalf("the run ended %s (%v)", e.Outcome, e.Detail)
				}
				if d := time.Since(start); d > 5*time.Second {
					t.Errorf("cancelled after %v", d)
				}
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the call was not cancelled when its client left")
}

// TestGateway_ListChanged: a server added to Gatehouse while a client is
// connected reaches it with notifications/tools/list_changed.
func TestGateway_ListChanged(t *testing.T) {
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			f := newFixture(t, allowOnce, Limits{})
			f.add(t, "Everything", "everything")
			changed := make(chan struct{}, 10)
			cs := f.connect(t, clientOptions{revision: rev, sdk: &sdk.ClientOptions{
				ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} }}})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if _, err := cs.ListTools(ctx, nil); err != nil {
				t.Fatal(err)
			}
			f.add(t, "Bank", "ledger-server.mjs", filepath.Join(t.TempDir(), "ledger"))
			// Each notification is followed by a listing, as a client does,
			// until one shows the new server (the first may be about the
			// first listing).
			var got []string
			for !strings.Contains(strings.Join(got, " "), "Bank__send_payment") {
				select {
				case <-changed:
				case <-time.After(10 * time.Second):
					t.Fatalf("no tools/list_changed brought the new server: %q", got)
				}
				tools, err := cs.ListTools(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				got = names(tools.Tools, func(t *sdk.Tool) string { return t.Name })
			}
		})
	}
}

// TestGateway_Limits: a client's requests beyond its rate are refused
// with a sentence; a cut-off app is refused; a limited app sees only its
// servers.
func TestGateway_Limits(t *testing.T) {
	t.Run("a flooding client is refused", func(t *testing.T) {
		f := newFixture(t, allowOnce, Limits{InFlight: 4, PerSecond: 0.01, Burst: 3})
		cs := f.connect(t, clientOptions{})
		ctx := context.Background()
		var err error
		for range 5 {
			if _, err = cs.ListTools(ctx, nil); err != nil {
				break
			}
		}
		if err == nil || !strings.Contains(err.Error(), "Too many requests") {
			t.Errorf("5 requests at a burst of 3: %v", err)
		}
	})
	t.Run("a cut-off app is refused, a limited one sees its servers", func(t *testing.T) {
		f := newFixture(t, allowOnce, Limits{})
		every := f.add(t, "Everything", "everything")
		cs := f.connect(t, clientOptions{name: "agent"})
		ctx := context.Background()
		if _, err := cs.ListTools(ctx, nil); err != nil {
			t.Fatal(err)
		}
		apps, _ := f.st.ClientApps()
		// As Settings → Connected apps saves it (app.ClientAppsService):
		// the store, then the gateway's open sessions.
		put := func(c store.ClientApp) {
			t.Helper()
			if _, err := f.st.PutClientAppSettings(c); err != nil {
				t.Fatal(err)
			}
			f.gw.AppChanged(c.ID)
		}
		put(store.ClientApp{ID: apps[0].ID, Limited: true, Servers: []string{"other"}})
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Everything__echo", Arguments: map[string]any{"message": "x"}})
		if err == nil && !res.IsError {
			t.Errorf("a call of a server no longer seen ran: %+v", res)
		}
		limited := f.connect(t, clientOptions{name: "agent"})
		tools, err := limited.ListTools(ctx, nil)
		if err != nil || len(tools.Tools) != 0 {
			t.Errorf("a limited app's tools: %+v, %v", tools, err)
		}
		put(store.ClientApp{ID: apps[0].ID})
		if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Everything__echo", Arguments: map[string]any{"message": "x"}}); err != nil || res.IsError {
			t.Errorf("a call once the app sees the server again: %+v, %v", res, err)
		}
		// Cut off while its session is open: its very next call is refused.
		put(store.ClientApp{ID: apps[0].ID, Servers: []string{every.ID}, CutOff: true})
		res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "Everything__echo", Arguments: map[string]any{"message": "x"}})
		if err == nil && (!res.IsError || !strings.Contains(resultText(res), "cut agent off")) ||
			err != nil && !strings.Contains(err.Error(), "cut agent off") {
			t.Errorf("the open session's call once cut off: %+v, %v", res, err)
		}
		cut := f.connect(t, clientOptions{name: "agent"})
		if _, err := cut.ListTools(ctx, nil); err == nil || !strings.Contains(err.Error(), "cut agent off") {
			t.Errorf("a cut-off app lists: %v", err)
		}
		if len(f.person.questions(mcp.KindToolCall)) != 1 {
			t.Errorf("asked %d times, want 1 (the call allowed again)", len(f.person.questions(mcp.KindToolCall)))
		}
	})
}

// TestGateway_ServesThisUserOnAPrivateSocket: the gateway's socket is 0600
// in a 0700 folder, and a client reaching it is known by what launched
// its process (here: this test's own parent).
func TestGateway_ServesThisUserOnAPrivateSocket(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	f.gw.opts.Launcher = ReadLauncher
	dir := filepath.Join(t.TempDir(), "run")
	path := filepath.Join(dir, "gateway.sock")
	if err := f.gw.ServeUnix(path); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		if info, err := os.Stat(p); err != nil || info.Mode().Perm() != want {
			t.Errorf("%s: %v, %v; want %v", p, info.Mode().Perm(), err, want)
		}
	}
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "socket-client", Version: "1"}, nil).Connect(ctx, &sdk.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	apps, err := f.st.ClientApps()
	parentExe, _ := os.Readlink("/proc/" + itoa(os.Getppid()) + "/exe")
	if err != nil || len(apps) != 1 || apps[0].Name != "socket-client" || apps[0].Launcher == "" || apps[0].Launcher != parentExe {
		t.Errorf("the app as recorded: %+v (%v); this process's parent runs %q", apps, err, parentExe)
	}
	// A client that sends more than MaxMessage in one message is cut off.
	big, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer big.Close()
	go func() {
		_, _ = big.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", MaxMessage+1024)))
	}()
	_ = big.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := big.Read(make([]byte, 64)); err == nil || os.IsTimeout(err) {
		t.Errorf("an oversized message: the connection stayed open (%v)", err)
	}
	if _, err := applink.Listen(path); err == nil {
		t.Error("a second gateway took the live socket")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestGateway_CloseEndsIdleSessions: closing the gateway (the window
// closes) ends every client's session, even one that never asked
// anything, so that its pipe ends too.
func TestGateway_CloseEndsIdleSessions(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	clientEnd, gatewayEnd := net.Pipe()
	if _, err := f.gw.Serve(context.Background(), gatewayEnd, gatewayEnd, launcher); err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- f.gw.Close() }()
	_ = clientEnd.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := clientEnd.Read(make([]byte, 16)); err == nil || os.IsTimeout(err) {
		t.Errorf("the idle session stayed open: %v", err)
	}
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return")
	}
}

// TestGateway_ARemovedServerLeavesTheLists: a server the person removes
// (or disables) leaves the client's lists, and the client is told.
func TestGateway_ARemovedServerLeavesTheLists(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	f.add(t, "Everything", "everything")
	bank := f.add(t, "Bank", "ledger-server.mjs", filepath.Join(t.TempDir(), "ledger"))
	changed := make(chan struct{}, 10)
	cs := f.connect(t, clientOptions{sdk: &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} }}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	list := func() string {
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(names(tools.Tools, func(t *sdk.Tool) string { return t.Name }), " ")
	}
	if got := list(); !strings.Contains(got, "Bank__send_payment") {
		t.Fatalf("before: %q", got)
	}
	if err := f.st.DeleteServer(bank.ID); err != nil { // what ServersService.Remove does
		t.Fatal(err)
	}
	f.m.Remove(bank.ID)
	for got := list(); strings.Contains(got, "Bank__"); got = list() {
		select {
		case <-changed:
		case <-time.After(10 * time.Second):
			t.Fatalf("the removed server's tools are still listed: %q", got)
		}
	}
}

// TestGateway_CallTimeLimit: a call that runs past the time limit is
// stopped on the server and the client reads why.
func TestGateway_CallTimeLimit(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	f.gw.opts.CallTimeout = func() time.Duration { return 500 * time.Millisecond }
	f.add(t, "Everything", "everything")
	cs := f.connect(t, clientOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Everything__trigger-long-running-operation",
		Arguments: map[string]any{"duration": 10, "steps": 2}})
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "took longer than") || time.Since(start) > 5*time.Second {
		t.Fatalf("after %v: %+v, %v", time.Since(start), res, err)
	}
	for _, e := range f.history(t) {
		if e.Mode == mcp.KindToolRun && e.Outcome != store.OutcomeTimedOut {
			t.Errorf("history says %s", e.Outcome)
		}
	}
}

// TestGateway_AClientsCancellationReachesTheServer: a client that cancels
// its call (notifications/cancelled) cancels it on the server at once.
func TestGateway_AClientsCancellationReachesTheServer(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	f.add(t, "Everything", "everything")
	cs := f.connect(t, clientOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(700*time.Millisecond, cancel)
	start := time.Now()
	_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Everything__trigger-long-running-operation",
		Arguments: map[string]any{"duration": 30, "steps": 3}})
	if err == nil {
		t.Fatal("the cancelled call returned a result")
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, e := range f.history(t) {
			if e.Mode == mcp.KindToolRun {
				if e.Outcome != store.OutcomeCancelled || time.Since(start) > 6*time.Second {
					t.Fatalf("the run ended %s after %v", e.Outcome, time.Since(start))
				}
				return
			}
		}
	}
	t.Fatal("the cancelled call never ended on the server")
}

// Gatehouse quitting (Gateway.Close) with a client's call running ends
// the call, and History has it as cancelled once Close returns, before
// the app writes History out and closes its store: a call forwarded to a
// stdio server is answered and recorded on the server's goroutines, which
// Close now waits for (forwarding.drain) rather than outrunning them.
func TestGateway_CloseRecordsTheCallsItEnds(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	f.add(t, "Everything", "everything")
	cs := f.connect(t, clientOptions{})
	go func() {
		_, _ = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "Everything__trigger-long-running-operation",
			Arguments: map[string]any{"duration": 30, "steps": 3}})
	}()
	time.Sleep(500 * time.Millisecond) // the call is on the server
	if err := f.gw.Close(); err != nil {
		t.Fatal(err)
	}
	var runs []store.HistoryEntry
	for _, e := range f.history(t) {
		if e.Mode == mcp.KindToolRun {
			runs = append(runs, e)
		}
	}
	if len(runs) != 1 || runs[0].Outcome != store.OutcomeCancelled {
		t.Fatalf("History after Close: %+v, want the call cancelled", runs)
	}
}
