package importcfg

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// TestRead_RefusesWhatNoConfigFileIs: a file offered as "Found on this
// computer" may come with a project folder someone else made. One far
// larger than any file of servers, or one that is not a file at all (a
// named pipe, a device), is refused with a sentence, without reading it
// whole or waiting on it (issue 22, item 2's class: bounded reads of what
// others control).
func TestRead_RefusesWhatNoConfigFileIs(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, ".mcp.json")
	if err := os.WriteFile(huge, []byte(`{"mcpServers":{`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<30); err != nil { // sparse: a gigabyte that takes no disk
		t.Fatal(err)
	}
	pipe := filepath.Join(dir, "mcp.json")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file, want string
	}{
		{"a gigabyte file", huge, ".mcp.json is larger than 16 MB"},
		{"a named pipe", pipe, "mcp.json is not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			done := make(chan error, 1)
			go func() {
				_, err := Read(tc.file, Options{})
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Read still waits after 10 s")
			}
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
				t.Errorf("reading allocated %d MB", grew>>20)
			}
			if msg := i18n.ErrorMessage(err); !strings.Contains(msg.In(i18n.English), tc.want) || msg.Key == "" {
				t.Errorf("says %q, want a sentence with %q", msg.In(i18n.English), tc.want)
			}
		})
	}
}

// TestParse_RefusesNestingThatWouldEndTheProgram: the JSON parser recurses
// once a level, so a project's .mcp.json of 8 MB of "[" overflowed the
// goroutine stack, a fatal error that closed the whole app (and the
// command line) instead of refusing the file. Brackets inside strings and
// comments do not count, so an ordinary file with many of them still reads.
func TestParse_RefusesNestingThatWouldEndTheProgram(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string
	}{
		{"8 MB of arrays", `{"mcpServers":` + strings.Repeat("[", 8<<20), "more than 1000 levels deep"},
		{"objects just past the bound", strings.Repeat(`{"a":`, MaxNesting+1), "more than 1000 levels deep"},
		{"brackets in strings and comments", `{"mcpServers":{"s":{"command":"` + strings.Repeat("[{", 5000) + `"}}} // ` + strings.Repeat("[", 5000) +
			"\n/* " + strings.Repeat("{", 5000) + " */", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("/p/.mcp.json", []byte(tc.data), Options{Home: "/h"})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				return
			}
			if msg := i18n.ErrorMessage(err); !strings.Contains(msg.In(i18n.English), tc.want) || msg.Key == "" {
				t.Errorf("says %q, want a sentence with %q", msg.In(i18n.English), tc.want)
			}
		})
	}
}
