package store

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestClientApps_SeenCountedKeptAcrossOpens(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir)
	fakeClock(s)
	first, err := s.SeeClientApp(ClientApp{Name: "claude-code", Version: "2.1", Launcher: "/usr/bin/node", Command: "node claude"})
	if err != nil {
		t.Fatal(err)
	}
	if first.ID != ClientAppID("claude-code", "/usr/bin/node") || first.FirstSeen.IsZero() || first.Limited || first.CutOff {
		t.Fatalf("first record %+v", first)
	}
	again, err := s.SeeClientApp(ClientApp{Name: "claude-code", Version: "2.2", Launcher: "/usr/bin/node"})
	if err != nil || again.ID != first.ID || !again.FirstSeen.Equal(first.FirstSeen) || !again.LastSeen.After(first.LastSeen) || again.Version != "2.2" {
		t.Fatalf("seen again: %+v, %v", again, err)
	}
	// The same name from another program is another app.
	other, _ := s.SeeClientApp(ClientApp{Name: "claude-code", Launcher: "/tmp/evil"})
	if other.ID == first.ID {
		t.Fatal("another launcher got the same record")
	}
	for _, n := range []int64{1, 2} {
		if err := s.AddClientCalls(first.ID, n); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddClientCalls("nope", 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("counting an unknown app: %v", err)
	}
	if _, err := s.PutClientAppSettings(ClientApp{ID: first.ID, Limited: true, Servers: []string{"s1"}, CutOff: true,
		Tools: []ClientToolMode{{ServerID: "s1", Tool: "write", Mode: ToolAsk}, {ServerID: "s1", Mode: ToolAllow}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openT(t, dir)
	got, err := s.ClientApp(first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Calls != 3 || !got.CutOff || !got.Sees("s1") || got.Sees("s2") || got.Version != "2.2" || got.Command != "" {
		t.Errorf("after reopening: %+v", got)
	}
	list, err := s.ClientApps()
	if err != nil || len(list) != 2 || list[0].ID != first.ID { // the latest seen first (counted last)
		t.Errorf("ClientApps = %+v, %v", list, err)
	}
	if err := s.db.View(readAll); err != nil {
		t.Errorf("reading the whole file after writing apps: %v", err)
	}
	if err := s.DeleteClientApp(first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClientApp(first.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("a deleted app: %v", err)
	}
}

func TestPutClientAppSettings(t *testing.T) {
	s := openT(t, t.TempDir())
	app, err := s.SeeClientApp(ClientApp{Name: "cursor", Launcher: "/opt/cursor/cursor"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		in      ClientApp
		wantErr error
		check   func(ClientApp) bool
	}{
		{"all servers by default", ClientApp{ID: app.ID}, nil, func(c ClientApp) bool { return c.Sees("any") && c.Servers == nil }},
		{"servers are dropped when not limited", ClientApp{ID: app.ID, Servers: []string{"s1"}}, nil,
			func(c ClientApp) bool { return c.Servers == nil && c.Sees("s2") }},
		{"limited to none sees none", ClientApp{ID: app.ID, Limited: true}, nil, func(c ClientApp) bool { return !c.Sees("s1") }},
		{"a default mode removes the app's own", ClientApp{ID: app.ID, Tools: []ClientToolMode{{ServerID: "s1", Tool: "t", Mode: ToolDefault}}}, nil,
			func(c ClientApp) bool { return len(c.Tools) == 0 }},
		{"a later mode for the same tool wins", ClientApp{ID: app.ID, Tools: []ClientToolMode{
			{ServerID: "s1", Tool: "t", Mode: ToolAllow}, {ServerID: "s1", Tool: "t", Mode: ToolDeny}}}, nil,
			func(c ClientApp) bool { return len(c.Tools) == 1 && c.Tools[0].Mode == ToolDeny }},
		{"an unknown mode", ClientApp{ID: app.ID, Tools: []ClientToolMode{{ServerID: "s1", Mode: "sometimes"}}}, ErrInvalid, nil},
		{"a mode without a server", ClientApp{ID: app.ID, Tools: []ClientToolMode{{Tool: "t", Mode: ToolDeny}}}, ErrInvalid, nil},
		{"an unknown app", ClientApp{ID: "nope"}, ErrNotFound, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.PutClientAppSettings(tc.in)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if tc.check != nil && !tc.check(got) {
				t.Errorf("saved %+v", got)
			}
			if tc.wantErr == nil && got.Name != "cursor" {
				t.Errorf("what was seen of the app was not kept: %+v", got)
			}
		})
	}
}

func TestClientApp_Policy(t *testing.T) {
	base := ToolPolicy{Mode: ToolAsk, Tools: map[string]ToolMode{"read": ToolAllow, "write": ToolAllow}}
	app := ClientApp{Tools: []ClientToolMode{{ServerID: "s1", Tool: "write", Mode: ToolAsk}, {ServerID: "s1", Mode: ToolDeny},
		{ServerID: "s2", Tool: "read", Mode: ToolDeny}}}
	got := app.Policy("s1", base)
	want := ToolPolicy{Mode: ToolDeny, Tools: map[string]ToolMode{"read": ToolAllow, "write": ToolAsk}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Policy = %+v, want %+v", got, want)
	}
	if base.Tools["write"] != ToolAllow {
		t.Error("the chat's policy was changed")
	}
	if got := app.Policy("s3", base); !reflect.DeepEqual(got, base) {
		t.Errorf("a server without modes of the app: %+v", got)
	}
}

func TestSeeClientApp_BoundsClaims(t *testing.T) {
	s := openT(t, t.TempDir())
	long := strings.Repeat("é", 1000)
	c, err := s.SeeClientApp(ClientApp{Name: long, Version: long, Launcher: long, Command: strings.Repeat("x", 100_000)})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Name) > maxClientText || len(c.Version) > maxClientText || len(c.Command) > maxClientCommand || !strings.HasPrefix(long, c.Name) {
		t.Errorf("kept %d, %d, %d bytes", len(c.Name), len(c.Version), len(c.Command))
	}
}

// TestClientApp_PolicyAllowIsBoundToWhatWasSeen: an app's own allow of a
// tool holds for the tool as the person saw it for that app; one without
// it (or the chat's approval of the tool) is no approval for the app.
func TestClientApp_PolicyAllowIsBoundToWhatWasSeen(t *testing.T) {
	chatSeen := ToolSeen{Fingerprint: "chat"}
	appSeen := ToolSeen{Fingerprint: "app"}
	base := ToolPolicy{Tools: map[string]ToolMode{"read": ToolAllow, "write": ToolAllow},
		Approved: map[string]ToolSeen{"read": chatSeen, "write": chatSeen}}
	app := ClientApp{Tools: []ClientToolMode{
		{ServerID: "s1", Tool: "read", Mode: ToolAllow, Seen: &appSeen},
		{ServerID: "s1", Tool: "write", Mode: ToolAllow},
		{ServerID: "s1", Tool: "fetch", Mode: ToolAllow, Seen: &appSeen},
	}}
	got := app.Policy("s1", base)
	for tool, want := range map[string]*ToolSeen{"read": &appSeen, "write": nil, "fetch": &appSeen} {
		if a := got.Approval(tool); (a == nil) != (want == nil) || (a != nil && a.Fingerprint != want.Fingerprint) {
			t.Errorf("%s: approval %+v, want %+v", tool, a, want)
		}
	}
	if base.Approved["write"] != chatSeen || len(base.Approved) != 2 {
		t.Errorf("the chat's approvals were changed: %+v", base.Approved)
	}
}

// TestAllowClientToolAlways: "Always allow" for one app is that app's own
// allow of the tool, bound to what the person saw; it replaces the app's
// earlier mode of the tool and keeps its others; the chat's policy is not
// touched.
func TestAllowClientToolAlways(t *testing.T) {
	s := openT(t, t.TempDir())
	app, err := s.SeeClientApp(ClientApp{Name: "cursor"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutClientAppSettings(ClientApp{ID: app.ID, Tools: []ClientToolMode{
		{ServerID: "s1", Tool: "write", Mode: ToolDeny}, {ServerID: "s1", Tool: "read", Mode: ToolAsk}}}); err != nil {
		t.Fatal(err)
	}
	seen := ToolSeen{Fingerprint: "f1", Description: "writes"}
	got, err := s.AllowClientToolAlways(app.ID, "s1", "write", seen)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := s.ClientApp(app.ID)
	for _, c := range []ClientApp{got, stored} {
		want := []ClientToolMode{{ServerID: "s1", Tool: "read", Mode: ToolAsk}, {ServerID: "s1", Tool: "write", Mode: ToolAllow, Seen: &seen}}
		if !reflect.DeepEqual(c.Tools, want) {
			t.Errorf("the app's modes: %+v", c.Tools)
		}
	}
	if p, err := s.ToolPolicy("s1"); err != nil || len(p.Tools) != 0 || len(p.Approved) != 0 {
		t.Errorf("the chat's policy changed: %+v, %v", p, err)
	}
	for _, tc := range []struct {
		name, id, server, tool string
		seen                   ToolSeen
		want                   error
	}{
		{"an unknown app", "nope", "s1", "write", seen, ErrNotFound},
		{"no server", app.ID, "", "write", seen, ErrInvalid},
		{"no tool", app.ID, "s1", " ", seen, ErrInvalid},
		{"no fingerprint", app.ID, "s1", "write", ToolSeen{}, ErrInvalid},
	} {
		if _, err := s.AllowClientToolAlways(tc.id, tc.server, tc.tool, tc.seen); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}
