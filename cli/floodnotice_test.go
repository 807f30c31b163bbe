package cli

import (
	"strings"
	"testing"
)

// TestCLI_FloodNoticeWithoutTheApp: with no app running, a server that
// floods the command with requests is said to in the terminal, as the
// window says it when it is open (the notice is the window's then). The
// call itself fails: a refused input request ends it.
func TestCLI_FloodNoticeWithoutTheApp(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t))
	answers := answersFile(t, `["cancel","cancel","cancel","cancel","cancel","cancel","cancel","cancel","cancel","cancel","cancel","cancel"]`)
	code, out, errOut := ghIn(t, t.TempDir(), "", "call", "Demo server", "flood", `{"count":12}`, "--answers", answers)
	if !strings.Contains(errOut, "Demo server is sending too many requests; some were refused without being shown.") {
		t.Errorf("code %d\nstdout: %s\nstderr: %s\nwant the flood notice on stderr", code, out, errOut)
	}
}
