package app

import (
	"testing"

	"github.com/gatehouse-app/gatehouse/store"
)

// TestClientApps_OwnAllowIsBoundToTheToolSeen: an app's own "allow" of one
// tool, set in Settings → Connected apps, makes that tool's calls from the
// app run without asking (what Permissions says), while the chat still
// asks; it is bound to the tool as the demo server offers it when allowed,
// so a later change of anything else keeps that binding (whatever the
// window sends), and a tool that changed since is held again; an allow of a
// tool the server does not offer is asked.
func TestClientApps_OwnAllowIsBoundToTheToolSeen(t *testing.T) {
	core, _, _, _, demo := dialogFixture(t)
	svc := NewClientAppsService(core)
	app, err := core.Store.SeeClientApp(store.ClientApp{Name: "cursor", Launcher: "/usr/bin/cursor"})
	if err != nil {
		t.Fatal(err)
	}
	effective := func(what, tool string) (store.ToolMode, bool) {
		t.Helper()
		views, err := svc.Permissions(app.ID)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for _, v := range views {
			for _, tv := range v.Tools {
				if v.ServerID == demo && tv.Name == tool {
					return tv.Effective, tv.Held
				}
			}
		}
		t.Fatalf("%s: no %s in %+v", what, tool, views)
		return "", false
	}
	if got, _ := effective("at first", "echo"); got != store.ToolAsk {
		t.Fatalf("at first echo is %s for the app, want ask (as in the chat)", got)
	}

	app.Tools = []store.ClientToolMode{{ServerID: demo, Tool: "echo", Mode: store.ToolAllow, Seen: &store.ToolSeen{Fingerprint: "forged"}}}
	saved, err := svc.Update(app)
	if err != nil {
		t.Fatal(err)
	}
	seen := saved.Tools[0].Seen
	now, offered := core.toolSeen(demo, "echo")
	if !offered || seen == nil || seen.Fingerprint != now.Fingerprint {
		t.Fatalf("the allow is bound to %+v, want the tool as offered now %+v", seen, now)
	}
	if got, held := effective("allowed", "echo"); got != store.ToolAllow || held {
		t.Errorf("allowed for the app: echo is %s (held %v), want allow", got, held)
	}
	chat, err := NewPoliciesService(core).Server(demo)
	if err != nil {
		t.Fatal(err)
	}
	for _, tv := range chat.Tools {
		if tv.Name == "echo" && tv.Effective != store.ToolAsk {
			t.Errorf("the chat's echo became %s", tv.Effective)
		}
	}

	// Another change sends the tools back as the window has them: the binding stays what it was.
	saved.Tools[0].Seen = &store.ToolSeen{Fingerprint: "forged"}
	saved.Limited, saved.Servers = true, []string{demo}
	if saved, err = svc.Update(saved); err != nil {
		t.Fatal(err)
	}
	if got := saved.Tools[0].Seen; got == nil || got.Fingerprint != now.Fingerprint {
		t.Errorf("after another change the allow is bound to %+v", got)
	}

	// As if echo changed since it was allowed for the app: held, so asked.
	saved.Tools[0].Seen = &store.ToolSeen{Fingerprint: "what it was"}
	if _, err := core.Store.PutClientAppSettings(saved); err != nil {
		t.Fatal(err)
	}
	if got, held := effective("changed", "echo"); got != store.ToolAsk || !held {
		t.Errorf("a changed tool: echo is %s (held %v), want ask, held", got, held)
	}

	app.Tools = []store.ClientToolMode{{ServerID: demo, Tool: "not-offered", Mode: store.ToolAllow}}
	if saved, err = svc.Update(app); err != nil {
		t.Fatal(err)
	}
	if saved.Tools[0].Seen != nil {
		t.Errorf("a tool not offered is bound to %+v", saved.Tools[0].Seen)
	}
	if got, _ := effective("not offered", "not-offered"); got != store.ToolAsk {
		t.Errorf("an allow of a tool not offered is %s, want ask", got)
	}
}
