package applink

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestSocketPath(t *testing.T) {
	runtimeDir, cache := t.TempDir(), t.TempDir()
	data := t.TempDir()
	link := filepath.Join(t.TempDir(), "data-link")
	if err := os.Symlink(data, link); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Run("in XDG_RUNTIME_DIR", func(t *testing.T) {
		t.Setenv("XDG_RUNTIME_DIR", runtimeDir)
		p, err := SocketPath(data)
		if err != nil || filepath.Dir(p) != filepath.Join(runtimeDir, "gatehouse") || !strings.HasSuffix(p, ".sock") {
			t.Errorf("got %q, %v", p, err)
		}
	})
	t.Run("without XDG_RUNTIME_DIR, in the cache folder", func(t *testing.T) {
		t.Setenv("XDG_RUNTIME_DIR", "")
		defer func(old string) { runUser = old }(runUser)
		runUser = filepath.Join(t.TempDir(), "none")
		p, err := SocketPath(data)
		if err != nil || filepath.Dir(p) != filepath.Join(cache, "gatehouse", "run") {
			t.Errorf("got %q, %v", p, err)
		}
	})
	t.Run("without XDG_RUNTIME_DIR, in the user's /run/user folder when it is there", func(t *testing.T) {
		t.Setenv("XDG_RUNTIME_DIR", "")
		defer func(old string) { runUser = old }(runUser)
		runUser = t.TempDir()
		mine := filepath.Join(runUser, strconv.Itoa(os.Getuid()))
		if err := os.Mkdir(mine, 0o700); err != nil {
			t.Fatal(err)
		}
		p, err := SocketPath(data)
		g, gerr := GatewaySocketPath(data)
		t.Setenv("XDG_RUNTIME_DIR", mine) // the app's, on a desktop
		want, _ := SocketPath(data)
		wantG, _ := GatewaySocketPath(data)
		if err != nil || gerr != nil || p != want || g != wantG || filepath.Dir(p) != filepath.Join(mine, "gatehouse") || p == g {
			t.Errorf("got %q and %q (%v, %v), want %q and %q", p, g, err, gerr, want, wantG)
		}
	})
	t.Run("one socket per data folder, whatever the path's spelling", func(t *testing.T) {
		t.Setenv("XDG_RUNTIME_DIR", runtimeDir)
		a, _ := SocketPath(data)
		b, _ := SocketPath(link)
		c, _ := SocketPath(t.TempDir())
		if a != b || a == c {
			t.Errorf("same folder: %q and %q; another folder: %q", a, b, c)
		}
	})
}

func TestListen_IsPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gatehouse")
	if err := os.Mkdir(dir, 0o755); err != nil { // made too open by someone
		t.Fatal(err)
	}
	path := filepath.Join(dir, "cli.sock")
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, c := range []struct {
		path string
		want os.FileMode
	}{{dir, 0o700}, {path, 0o600}} {
		info, err := os.Stat(c.path)
		if err != nil || info.Mode().Perm() != c.want {
			t.Errorf("%s: mode %v (%v), want %v", c.path, info.Mode().Perm(), err, c.want)
		}
	}
	if l.Addr().Network() != "unix" {
		t.Errorf("listens on %s", l.Addr().Network())
	}
}

func TestListen_Stale(t *testing.T) {
	cases := []struct {
		name    string
		before  func(t *testing.T, path string)
		wantErr string // "" when Listen succeeds
	}{
		{"a socket a crashed app left is replaced", func(t *testing.T, path string) {
			l, err := Listen(path)
			if err != nil {
				t.Fatal(err)
			}
			l.SetUnlinkOnClose(false)
			l.Close()
		}, ""},
		{"a socket someone answers on is not taken", func(t *testing.T, path string) {
			l, err := Listen(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { l.Close() })
		}, ErrInUse.Error()},
		{"a file that is not a socket is left alone", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("keep me"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, "is not a socket"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run", "cli.sock")
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			tc.before(t, path)
			l, err := Listen(path)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				defer l.Close()
				c, err := net.Dial("unix", path)
				if err != nil {
					t.Fatalf("the new socket does not answer: %v", err)
				}
				c.Close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err = %v, want %q", err, tc.wantErr)
			}
			if _, statErr := os.Lstat(path); statErr != nil {
				t.Errorf("what was there is gone: %v", statErr)
			}
		})
	}
}

func TestSamePerson(t *testing.T) {
	cases := []struct {
		name      string
		peer, own int
		ok        bool
	}{
		{"the same user", 1000, 1000, true},
		{"another user", 1001, 1000, false},
		{"root is another user to an app that is not root's", 0, 1000, false},
		{"root's own app", 0, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := samePerson(tc.peer, tc.own)
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, errOtherUser)) {
				t.Errorf("samePerson(%d, %d) = %v", tc.peer, tc.own, err)
			}
		})
	}
}

// TestServer_PeerCredentials: the real SO_PEERCRED check lets this process
// in; a connection whose credentials name another user (faked: a test cannot
// connect as another user without root) is closed before MCP starts.
func TestServer_PeerCredentials(t *testing.T) {
	// A command of the server's table: its answer says the session works.
	list := NewTool("list_things", "Lists things.", func(context.Context, struct{}) (Items[string], error) {
		return Items[string]{Items: []string{"a thing"}}, nil
	})
	cases := []struct {
		name    string
		peerUID func(*net.UnixConn) (int, error)
		ok      bool
	}{
		{"this user, as the kernel says", peerUID, true},
		{"another user", func(*net.UnixConn) (int, error) { return os.Getuid() + 1, nil }, false},
		{"credentials that cannot be read", func(*net.UnixConn) (int, error) { return -1, errors.New("no credentials") }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			t.Setenv("XDG_RUNTIME_DIR", shortDir(t)) // a socket's path is at most 107 bytes
			path, err := SocketPath(data)
			if err != nil {
				t.Fatal(err)
			}
			l, err := Listen(path)
			if err != nil {
				t.Fatal(err)
			}
			s := NewServer(Options{Version: "test", Tools: []Tool{list}})
			s.peerUID = tc.peerUID
			s.serveListener(l)
			defer s.Close()
			cs, err := Dial(context.Background(), data, ClientOptions{Version: "test"})
			if !tc.ok {
				if err == nil {
					cs.Close()
					t.Fatal("the connection was served")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			var things Items[string]
			if err := Run(context.Background(), cs, "list_things", struct{}{}, &things); err != nil || len(things.Items) != 1 {
				t.Errorf("list_things: %+v, %v", things, err)
			}
			tools, err := cs.ListTools(context.Background(), &sdk.ListToolsParams{})
			if err != nil {
				t.Fatal(err)
			}
			for _, tool := range tools.Tools {
				if tool.OutputSchema == nil {
					t.Errorf("%s has no output schema", tool.Name)
				}
			}
		})
	}
}

func TestDial_NoApp(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if _, err := Dial(context.Background(), t.TempDir(), ClientOptions{Version: "test"}); !errors.Is(err, ErrNoApp) {
		t.Errorf("err = %v, want ErrNoApp", err)
	}
}

// shortDir is a temporary folder with a short path.
func shortDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "gh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestListen_PathTooLong(t *testing.T) {
	path := filepath.Join(t.TempDir(), strings.Repeat("x", 120), "cli.sock")
	if _, err := Listen(path); err == nil || !strings.Contains(err.Error(), "too long") {
		t.Errorf("err = %v", err)
	}
}
