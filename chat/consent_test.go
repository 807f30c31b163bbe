package chat

import (
	"context"
	"errors"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestConsent_AtOnce: a caller that cannot wait (the gateway's goroutine
// reading another app's messages) gets the settings' decision at once; a
// call the person would be asked about is not asked, nothing of it in
// History, and the same call made where it can wait is asked as ever.
func TestConsent_AtOnce(t *testing.T) {
	for _, tc := range []struct {
		name        string
		always      bool // the tool is set to always allow
		atOnce      bool
		wantErr     error
		wantAllowed bool
		wantAsked   int
		wantHistory int
	}{
		{"allowed by the settings, at once", true, true, nil, true, 0, 1},
		{"allowed by the settings, waiting", true, false, nil, true, 0, 1},
		{"asked, at once: not asked", false, true, ErrWouldAsk, false, 0, 0},
		{"asked, waiting: asked", false, false, nil, true, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := store.Open(t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			p := &person{answer: func(*mcp.Question) mcp.Response { return mcp.Response{Action: mcp.ActionAccept} }}
			broker := mcp.NewBroker(mcp.BrokerOptions{Store: st, Answerer: p})
			t.Cleanup(func() { broker.FlushHistory(); st.Close() })
			settings := &memSettings{always: map[store.ToolKey]*store.ToolSeen{}}
			srv := store.Server{ID: "s1", Name: "Toolbox"}
			tool := &sdk.Tool{Name: "rm", InputSchema: map[string]any{"type": "object"}}
			if tc.always {
				seen := mcp.ToolFingerprint(srv, tool)
				settings.always[store.ToolKey{ServerID: srv.ID, Tool: tool.Name}] = &seen
			}
			got, err := Consent{Broker: broker, Settings: settings}.Approve(context.Background(), ConsentRequest{
				Peer: mcp.Peer{Server: srv}, Tool: tool, Call: mcp.ToolCall{Arguments: []byte(`{}`)}, AtOnce: tc.atOnce})
			if !errors.Is(err, tc.wantErr) || got.Allowed != tc.wantAllowed {
				t.Errorf("Approve = %+v, %v", got, err)
			}
			if n := len(p.questions()); n != tc.wantAsked {
				t.Errorf("the person was asked %d times, want %d", n, tc.wantAsked)
			}
			broker.FlushHistory()
			if hist, err := st.History(store.HistoryFilter{}); err != nil || len(hist) != tc.wantHistory {
				t.Errorf("History holds %d entries (%v), want %d", len(hist), err, tc.wantHistory)
			}
		})
	}
}
