package app

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/store"
)

// TestViewsNeverSendNull: every value the window receives from Go — server
// views, tools, a tool result, the question snapshot, history — has its
// lists and maps as [] and {}, never null, so the frontend takes them as
// they are. The data is real: the demo server, a configured HTTP server with
// no headers, a question on screen.
func TestViewsNeverSendNull(t *testing.T) {
	core, rec, svc, tools, demo := dialogFixture(t)
	servers := NewServersService(core)
	if _, err := servers.Add(ServerInput{Name: "Remote", Transport: store.TransportHTTP, URL: "http://127.0.0.1:9/mcp"}); err != nil {
		t.Fatal(err)
	}
	if _, err := servers.Add(ServerInput{Name: "Bare", Transport: store.TransportStdio, Command: "true"}); err != nil {
		t.Fatal(err)
	}
	list, err := servers.List()
	if err != nil {
		t.Fatal(err)
	}
	toolList, err := tools.List(demo)
	if err != nil {
		t.Fatal(err)
	}
	echo, err := tools.Call("n1", demo, "echo", `{"message":"hi"}`)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _, _ = tools.Call("n2", demo, "register", ""); close(done) }()
	q := shownRequest(t, rec, 0)
	snapshot := svc.Snapshot()
	if err := svc.Decline(q.ID); err != nil {
		t.Fatal(err)
	}
	<-done
	history, err := svc.History("", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	permissions, err := NewPoliciesService(core).List()
	if err != nil {
		t.Fatal(err)
	}
	// Settings → Connected apps: an app that used the gateway, what its calls do, and Connect an app.
	clientApp, err := core.Store.SeeClientApp(store.ClientApp{Name: "cursor"})
	if err != nil {
		t.Fatal(err)
	}
	clientApps, err := NewClientAppsService(core).List()
	if err != nil {
		t.Fatal(err)
	}
	appPermissions, err := NewClientAppsService(core).Permissions(clientApp.ID)
	if err != nil {
		t.Fatal(err)
	}
	connect := &ConnectService{core: core, exe: "/usr/bin/gatehouse", home: t.TempDir()}
	connectApps, err := connect.Apps()
	if err != nil {
		t.Fatal(err)
	}
	preview, err := connect.Preview(ConnectRequest{App: "qwen", Replace: true})
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]any{
		"servers": list, "tools": toolList, "a tool result": echo, "the snapshot": snapshot,
		"the question": q, "history": history, "tool permissions": permissions,
		"connected apps": clientApps, "an app's permissions": appPermissions, "apps to connect": connectApps,
		"a connect preview": preview,
	} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		_ = json.Unmarshal(b, &doc)
		if path := nullPath(doc, ""); path != "" {
			t.Errorf("%s sends null at %s: %s", name, path, b)
		}
	}
}

// nullPath returns the path of the first null in a decoded JSON value, or "".
// A nil pointer member left out with omitempty is not null.
func nullPath(v any, at string) string {
	switch x := v.(type) {
	case nil:
		return strings.TrimPrefix(at, ".") + "(null)"
	case map[string]any:
		for k, e := range x {
			if p := nullPath(e, at+"."+k); p != "" {
				return p
			}
		}
	case []any:
		for _, e := range x {
			if p := nullPath(e, at+"[]"); p != "" {
				return p
			}
		}
	}
	return ""
}
