package cli

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCLI_AQuestionWhileTheServerConnectsIsAskedHere: a server that asks
// for input as soon as `gatehouse call` has connected it (the TypeScript
// SDK peer ask-on-connect.mjs) asks this terminal, as every question the
// command causes does; it is not cancelled unseen because the call has not
// started yet.
func TestCLI_AQuestionWhileTheServerConnectsIsAskedHere(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t)) // no app runs on this data folder
	_, file, _, _ := runtime.Caller(0)
	peer := filepath.Join(filepath.Dir(file), "..", "testdata", "peers", "ask-on-connect.mjs")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed")
	}
	dir := t.TempDir()
	addBombPeer(t, dir) // skips (or fails with GATEHOUSE_REQUIRE_PEERS) when the peers are not installed
	if code, _, errOut := gh(t, dir, "servers", "add", "Asker", "--", node, peer, "form"); code != 0 {
		t.Fatal(errOut)
	}
	// The tool returns once the question is answered: "on connect: decline"
	// when it was answered here, "cancel" when it went unseen.
	_, out, errOut := ghIn(t, dir, "", "call", "Asker", "answer", "--answers", answersFile(t, `["decline"]`))
	if !strings.Contains(out, "on connect: decline") || !strings.Contains(errOut, "Set up your weekly report.") {
		t.Errorf("stdout: %s\nstderr: %s\nwant the server's question asked and answered here", out, errOut)
	}
}
