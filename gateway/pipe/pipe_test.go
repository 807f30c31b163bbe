package pipe

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/i18n"
)

// TestRun_AppThatCannotStart: the app it starts exits at once with a
// reason: Run says so, with the app's own last line, and writes nothing on
// the MCP channel.
func TestRun_AppThatCannotStart(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("DISPLAY", ":99")
	app := filepath.Join(t.TempDir(), "fake-gatehouse")
	script := "#!/bin/sh\necho 'starting' >&2\necho 'gatehouse: the data file is damaged' >&2\nexit 1\n"
	if err := os.WriteFile(app, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := Run(context.Background(), Options{DataDir: t.TempDir(), App: app, Stdin: strings.NewReader(""), Stdout: &out})
	want := i18n.M("cli.gateway.startFailed", "detail", "the data file is damaged").String()
	if err == nil || err.Error() != want || out.Len() > 0 {
		t.Errorf("Run = %v, want %q; stdout %q", err, want, out.String())
	}
}

// TestRun_WaitsForTheAppItStarted: the app it starts serves the socket a
// moment later (another start took over: exit 0 first); Run waits for it
// and pipes.
func TestRun_WaitsForTheAppItStarted(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("DISPLAY", ":99")
	data := t.TempDir()
	path, err := applink.GatewaySocketPath(data)
	if err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(t.TempDir(), "fake-gatehouse")
	if err := os.WriteFile(app, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		l, err := applink.Listen(path)
		if err != nil {
			return
		}
		defer l.Close()
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		buf := make([]byte, 5)
		if _, err := c.Read(buf); err == nil {
			_, _ = c.Write(bytes.ToUpper(buf))
		}
	}()
	var out bytes.Buffer
	if err := Run(context.Background(), Options{DataDir: data, App: app, Stdin: strings.NewReader("hello"), Stdout: &out}); err != nil && !errors.Is(err, net.ErrClosed) {
		t.Fatal(err)
	}
	if out.String() != "HELLO" {
		t.Errorf("piped %q", out.String())
	}
}

func TestMain_UnknownArgument(t *testing.T) {
	if code := Main([]string{"--frobnicate"}); code != 2 {
		t.Errorf("exit %d", code)
	}
}
