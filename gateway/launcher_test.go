package gateway

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadLauncher_MasksSecretsInItsCommandLine: an agent started with its
// API key on the command line (Qwen Code's --openai-api-key) is named in
// the approval and History by its command line, without the key.
func TestReadLauncher_MasksSecretsInItsCommandLine(t *testing.T) {
	root := t.TempDir()
	write := func(pid, name, content string) {
		t.Helper()
		dir := filepath.Join(root, pid)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("200", "status", "Name:\tgatehouse-gateway\nPPid:\t100\n")
	args := []string{"/usr/bin/node", "/opt/qwen/cli.js", "--openai-api-key", "sk-proj-Zx81standinKEY1234567890", "--token=abcdefgh12345678",
		"GITHUB_TOKEN=ghp_abcdefghijklmnop", "https://user:hunter22@example.com/mcp?api_key=zzzzzzzz", "Pay Alice 12"}
	write("100", "cmdline", strings.Join(args, "\x00")+"\x00")
	old := procRoot
	procRoot = root
	t.Cleanup(func() { procRoot = old })

	l := ReadLauncher(200)
	if l.PID != 100 {
		t.Fatalf("launcher PID = %d, want 100", l.PID)
	}
	for _, secret := range []string{"Zx81standinKEY", "abcdefgh12345678", "abcdefghijklmnop", "hunter22", "zzzzzzzz"} {
		if strings.Contains(l.Command, secret) {
			t.Errorf("the command line shows the secret %q: %s", secret, l.Command)
		}
	}
	for _, shown := range []string{"/usr/bin/node /opt/qwen/cli.js --openai-api-key", "Pay Alice 12", "example.com/mcp"} {
		if !strings.Contains(l.Command, shown) {
			t.Errorf("the command line lost %q: %s", shown, l.Command)
		}
	}
}
