package connectapp

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// GatewayEntry is the contract with `gatehouse gateway`: the program's
// path, "gateway", and the data folder only when it is not the default
// one, made absolute since the other app starts the program elsewhere.
func TestGatewayEntry(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, dataDir string
		args          []string
	}{
		{"the default data folder", "", []string{"gateway"}},
		{"a data folder of the person's", "/srv/gh", []string{"--data-dir", "/srv/gh", "gateway"}},
		{"a relative data folder", "work/gh", []string{"--data-dir", filepath.Join(wd, "work/gh"), "gateway"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := GatewayEntry("/usr/bin/gatehouse", tc.dataDir)
			if e.Name != "gatehouse" || e.Command != "/usr/bin/gatehouse" || !slices.Equal(e.Args, tc.args) {
				t.Errorf("GatewayEntry = %+v, want args %q", e, tc.args)
			}
		})
	}
}

// An entry is Gatehouse's own when it runs a program called gatehouse
// with "gateway" last (an older install's path), never for a server that
// merely mentions Gatehouse.
func TestIsGateway(t *testing.T) {
	cases := []struct {
		command string
		args    []string
		want    bool
	}{
		{"/usr/bin/gatehouse", []string{"gateway"}, true},
		{"/home/a/src/gatehouse/build/bin/gatehouse-dev", []string{"--data-dir", "/d", "gateway"}, true},
		{"gatehouse", []string{"gateway", "--verbose"}, false},
		{"docker", []string{"run", "gatehouse", "gateway"}, false},
		{"/usr/bin/gatehouse", nil, false},
	}
	for _, tc := range cases {
		if got := isGateway(tc.command, tc.args); got != tc.want {
			t.Errorf("isGateway(%q, %q) = %v", tc.command, tc.args, got)
		}
	}
}
