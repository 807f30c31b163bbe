package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/store"
)

func TestChildEnv(t *testing.T) {
	// What the shell that started Gatehouse might hold.
	parent := []string{
		"HOME=/home/ada", "USER=ada", "LOGNAME=ada", "PATH=/usr/bin:/bin", "SHELL=/bin/bash", "TERM=xterm",
		"LANG=de_DE.UTF-8", "LC_ALL=de_DE.UTF-8", "LC_TIME=en_GB.UTF-8", "LANGUAGE=de", "TZ=Europe/Berlin",
		"TMPDIR=/tmp/ada", "XDG_RUNTIME_DIR=/run/user/1000", "DISPLAY=:0",
		"PWD=/opt/gatehouse", "OLDPWD=/home/ada",
		"OPENAI_API_KEY=sk-secret", "AWS_SECRET_ACCESS_KEY=aws-secret", "GITHUB_TOKEN=ghp_secret",
		"LCOV_TOKEN=not-a-locale", "malformed",
	}
	safe := []string{
		"DISPLAY=:0", "HOME=/home/ada", "LANG=de_DE.UTF-8", "LANGUAGE=de", "LC_ALL=de_DE.UTF-8", "LC_TIME=en_GB.UTF-8",
		"LOGNAME=ada", "PATH=/usr/bin:/bin", "PWD=/srv/files", "SHELL=/bin/bash", "TERM=xterm", "TMPDIR=/tmp/ada",
		"TZ=Europe/Berlin", "USER=ada", "XDG_RUNTIME_DIR=/run/user/1000",
	}
	cases := []struct {
		name   string
		parent []string
		cfg    store.StdioConfig
		want   []string
	}{
		{
			name:   "by default only the safe variables pass, never the secrets",
			parent: parent,
			want:   safe,
		},
		{
			name:   "a configured variable arrives and replaces the app's",
			parent: parent,
			cfg:    store.StdioConfig{Env: map[string]string{"ROOT": "/srv/files", "PATH": "/opt/node/bin", "OPENAI_API_KEY": "sk-for-this-server"}},
			want: []string{
				"DISPLAY=:0", "HOME=/home/ada", "LANG=de_DE.UTF-8", "LANGUAGE=de", "LC_ALL=de_DE.UTF-8", "LC_TIME=en_GB.UTF-8",
				"LOGNAME=ada", "OPENAI_API_KEY=sk-for-this-server", "PATH=/opt/node/bin", "PWD=/srv/files", "ROOT=/srv/files",
				"SHELL=/bin/bash", "TERM=xterm", "TMPDIR=/tmp/ada", "TZ=Europe/Berlin", "USER=ada", "XDG_RUNTIME_DIR=/run/user/1000",
			},
		},
		{
			name:   "a safe variable that is not set is not invented",
			parent: []string{"PATH=/usr/bin", "OPENAI_API_KEY=sk-secret"},
			want:   []string{"PATH=/usr/bin", "PWD=/srv/files"},
		},
		{
			name:   "with the whole environment on, everything passes and PWD names the server's folder",
			parent: []string{"PATH=/usr/bin", "PWD=/opt/gatehouse", "OPENAI_API_KEY=sk-secret", "EMPTY="},
			cfg:    store.StdioConfig{InheritEnv: true, Env: map[string]string{"ROOT": "/srv"}},
			want:   []string{"EMPTY=", "OPENAI_API_KEY=sk-secret", "PATH=/usr/bin", "PWD=/srv/files", "ROOT=/srv"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := childEnv(tc.parent, &tc.cfg, "/srv/files")
			if !slices.Equal(got, tc.want) {
				t.Errorf("childEnv =\n  %q\nwant\n  %q", got, tc.want)
			}
		})
	}
}

func TestStdioDir(t *testing.T) {
	home, other := t.TempDir(), t.TempDir()
	cases := []struct {
		name    string
		home    string
		dir     string
		want    string
		wantErr string
	}{
		{name: "no folder set: the person's home", home: home, want: home},
		{name: "a folder set: that folder", home: home, dir: other, want: other},
		{name: "no folder set and no home: a sentence saying to set one", home: "",
			wantErr: "Invalid server settings: No working folder: the home folder is not known ($HOME is not defined), so set one for this server."},
		{name: "a folder that does not exist", home: home, dir: filepath.Join(other, "gone"),
			wantErr: "Invalid server settings: Working folder not found: " + filepath.Join(other, "gone")},
		{name: "a home that does not exist", home: filepath.Join(other, "nohome"),
			wantErr: "Invalid server settings: Working folder not found: " + filepath.Join(other, "nohome")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("HOME", tc.home)
			got, err := stdioDir(&store.StdioConfig{Command: "x", Dir: tc.dir})
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr || !errors.Is(err, ErrBadConfig) {
					t.Fatalf("err = %v, want %q wrapping ErrBadConfig", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("stdioDir = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestStdio_ServerEverythingEnvironment asks a real server-everything for its
// environment (its get-env tool) with secrets in the app's environment, as a
// person who exported API keys in the shell that started Gatehouse.
func TestStdio_ServerEverythingEnvironment(t *testing.T) {
	entry := everythingPath(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("OPENAI_API_KEY", "sk-gatehouse-test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-gatehouse-test")
	cases := []struct {
		name       string
		inherit    bool
		wantSecret bool
	}{
		{name: "by default the server cannot read the person's secrets", inherit: false, wantSecret: false},
		{name: "with the whole environment on, it can", inherit: true, wantSecret: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestManager(t)
			srv := store.Server{ID: "everything", Name: "Everything", Enabled: true, Transport: store.TransportStdio,
				Stdio: &store.StdioConfig{Command: "node", Args: []string{entry, "stdio"},
					Env: map[string]string{"GATEHOUSE_TEST_ROOT": "/srv/files"}, InheritEnv: tc.inherit}}
			m.Set(srv)
			connected(t, m, srv.ID)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			res, err := m.CallTool(ctx, srv.ID, "get-env", map[string]any{})
			if err != nil || res.IsError {
				t.Fatalf("get-env: %v %s", err, textOf(res))
			}
			var env map[string]string
			if err := json.Unmarshal([]byte(textOf(res)), &env); err != nil {
				t.Fatalf("get-env did not answer with JSON: %v\n%s", err, textOf(res))
			}
			for _, name := range []string{"OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY"} {
				if _, has := env[name]; has != tc.wantSecret {
					t.Errorf("server sees %s: %v, want %v", name, has, tc.wantSecret)
				}
			}
			want := map[string]string{"PATH": os.Getenv("PATH"), "HOME": home, "PWD": home, "GATEHOUSE_TEST_ROOT": "/srv/files"}
			for name, value := range want {
				if env[name] != value {
					t.Errorf("server sees %s=%q, want %q", name, env[name], value)
				}
			}
		})
	}
}

// TestStdio_WorkingFolder reads where a real server process runs from
// /proc/PID/cwd: the person's home unless a folder is set, never the app's.
func TestStdio_WorkingFolder(t *testing.T) {
	home, folder := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	cases := []struct {
		name string
		dir  string
		want string
	}{
		{name: "no folder set: the home folder", want: home},
		{name: "a folder set: that folder", dir: folder, want: folder},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestManager(t)
			pidFile := filepath.Join(t.TempDir(), "pid")
			srv := peerServer(t, "demo", "demo", map[string]string{"GATEHOUSE_TEST_PIDFILE": pidFile})
			srv.Stdio.Dir = tc.dir
			m.Set(srv)
			connected(t, m, srv.ID)
			cwd, err := os.Readlink("/proc/" + strconv.Itoa(readPID(t, pidFile)) + "/cwd")
			if err != nil {
				t.Fatal(err)
			}
			want, _ := filepath.EvalSymlinks(tc.want)
			if cwd != want {
				t.Errorf("server runs in %s, want %s", cwd, want)
			}
		})
	}
}
