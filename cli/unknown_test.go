package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gatehouse-app/gatehouse/app"
)

// runMainEnv makes this test binary run Main with its arguments, as the
// gatehouse program does, so a test sees the real exit code and streams.
const runMainEnv = "GATEHOUSE_TEST_RUN_MAIN"

func init() {
	if os.Getenv(runMainEnv) == "1" {
		os.Exit(Main(os.Args[1:], fstest.MapFS{}))
	}
}

// TestMain_UnknownCommandSaysSoInsteadOfOpeningTheWindow runs the program as
// a person does. The test binary is a production-like build (no dev tag), in
// which Wails reads no flags, so any argument that is not a command is unknown.
// There is no display: a regression that opens the window fails to start GTK
// and so fails the exit code check too.
func TestMain_UnknownCommandSaysSoInsteadOfOpeningTheWindow(t *testing.T) {
	dataDir := t.TempDir()
	tests := []struct {
		name       string
		lang       string
		args       []string
		wantCode   int
		wantStderr []string // each must appear
		wantStdout []string
	}{
		{name: "an unknown word is named and the usage shown",
			args: []string{"foo"}, wantCode: 2,
			wantStderr: []string{"gatehouse: unknown command “foo”\n", "Usage:", "gatehouse servers list"}},
		{name: "a misspelt command is not taken for another",
			args: []string{"serverz", "list"}, wantCode: 2,
			wantStderr: []string{"unknown command “serverz”", "Usage:"}},
		{name: "an unknown option does not open the window",
			args: []string{"--nonsense"}, wantCode: 2,
			wantStderr: []string{"unknown command “--nonsense”", "Usage:"}},
		{name: "a single-dash Wails flag is unknown in production",
			args: []string{"-assetdir", "/tmp"}, wantCode: 2,
			wantStderr: []string{"unknown command “-assetdir”"}},
		{name: "--data-dir before an unknown word is still taken as the data folder",
			args: []string{"--data-dir", dataDir, "foo"}, wantCode: 2,
			wantStderr: []string{"unknown command “foo”"}},
		{name: "a Chinese terminal is told in Chinese",
			lang: "zh_CN.UTF-8", args: []string{"foo"}, wantCode: 2,
			wantStderr: []string{"未知命令“foo”", "用法："}},
		{name: "help still prints the usage and succeeds",
			args: []string{"help"}, wantCode: 0,
			wantStdout: []string{"Usage:", "gatehouse servers list"}},
		{name: "version still prints the version",
			args: []string{"version"}, wantCode: 0,
			wantStdout: []string{"gatehouse " + app.Version + "\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], tt.args...)
			lang := tt.lang
			if lang == "" {
				lang = "C.UTF-8"
			}
			// No DISPLAY or WAYLAND_DISPLAY: the window cannot open.
			cmd.Env = []string{runMainEnv + "=1", "HOME=" + t.TempDir(), "GATEHOUSE_DATA_DIR=" + dataDir,
				"PATH=" + os.Getenv("PATH"), "LANG=" + lang}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if exitErr := (*exec.ExitError)(nil); errors.As(err, &exitErr) {
				code = exitErr.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.wantCode {
				t.Errorf("gatehouse %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s",
					strings.Join(tt.args, " "), code, tt.wantCode, &stdout, &stderr)
			}
			for _, want := range tt.wantStderr {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("gatehouse %s: stderr lacks %q:\n%s", strings.Join(tt.args, " "), want, &stderr)
				}
			}
			for _, want := range tt.wantStdout {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("gatehouse %s: stdout lacks %q:\n%s", strings.Join(tt.args, " "), want, &stdout)
				}
			}
			if tt.wantCode == 2 && stdout.Len() > 0 {
				t.Errorf("gatehouse %s: a usage error wrote to stdout:\n%s", strings.Join(tt.args, " "), &stdout)
			}
		})
	}
}
