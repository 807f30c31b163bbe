package cli

import (
	"strings"
	"testing"
)

// TestCLI_AFloodDuringACallIsSaidHere: a server that floods the command
// with requests while its tool runs (the demo server's flood tool) is said
// to, in the terminal, with or without the window (which shows the notice
// too when it is open). The call itself fails: a refused input request
// ends it.
func TestCLI_AFloodDuringACallIsSaidHere(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t)) // no app runs on this data folder
	answers := answersFile(t, `["cancel","cancel","cancel","cancel","cancel","cancel","cancel","cancel","cancel","cancel","cancel","cancel"]`)
	code, out, errOut := ghIn(t, t.TempDir(), "", "call", "Demo server", "flood", `{"count":12}`, "--answers", answers)
	if !strings.Contains(errOut, "Demo server is sending too many requests. Some were refused without being shown.") {
		t.Errorf("code %d\nstdout: %s\nstderr: %s\nwant the flood notice on stderr", code, out, errOut)
	}
}
