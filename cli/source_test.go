package cli

import (
	"testing"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestCLI_CallsAreRecordedFromTheCommandLine: a tool call made with
// `gatehouse call` is in the history as coming from the command line, with
// the window open (the call goes through the running app) or not; through
// the app it was recorded "from the Tools pane" (issue 23).
func TestCLI_CallsAreRecordedFromTheCommandLine(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t))
	for _, tc := range []struct {
		name    string
		withApp bool
	}{
		{"through the running app", true},
		{"without the app", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, core := t.TempDir(), (*app.Core)(nil)
			if tc.withApp {
				dir, core = runningApp(t)
			}
			if code, out, errOut := gh(t, dir, "call", "Demo server", "echo", `{"message":"from the terminal"}`); code != 0 {
				t.Fatalf("code %d\nstdout: %s\nstderr: %s", code, out, errOut)
			}
			st := (*store.Store)(nil)
			if core != nil {
				core.Broker.FlushHistory()
				st = core.Store
			} else { // the command closed the data file: read it
				var err error
				if st, err = store.Open(dir, nil); err != nil {
					t.Fatal(err)
				}
				defer st.Close()
			}
			h, err := st.History(store.HistoryFilter{})
			if err != nil || len(h) != 1 || h[0].Mode != "tool-run" || h[0].Tool != "echo" || h[0].Source != "cli" {
				t.Errorf("history = %+v, %v; want one run of echo from the command line (source cli)", h, err)
			}
		})
	}
}
