package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLI_ResourcesAndPrompts: what a person sees of the demo server's
// resources and prompts on the command line.
func TestCLI_ResourcesAndPrompts(t *testing.T) {
	dir := t.TempDir()
	logo := filepath.Join(t.TempDir(), "logo.png")
	cases := []struct {
		name     string
		args     []string
		code     int
		out, err []string // what stdout and stderr contain
	}{
		{"resources and templates, one per line", []string{"resources", "Demo server"}, 0,
			[]string{"KIND      URI", "resource  gatehouse-demo://readme", "resource  gatehouse-demo://logo.png", "image/png",
				"template  gatehouse-demo://forecast/{city}  Forecast of a city (made up)  application/json  An invented three-day forecast as JSON.\n"}, nil},
		{"a text resource as it is", []string{"read", "Demo server", "gatehouse-demo://readme"}, 0, []string{"# Gatehouse demo server\n"}, nil},
		{"JSON pretty-printed", []string{"read", "Demo server", "gatehouse-demo://forecast/Oslo"}, 0, []string{"{\n  \"city\": \"Oslo\",\n  \"days\": ["}, nil},
		{"binary data to a file", []string{"read", "Demo server", "gatehouse-demo://logo.png", "--out", logo}, 0, []string{"Saved ", " bytes to " + logo + "."}, nil},
		{"an unknown resource", []string{"read", "Demo server", "gatehouse-demo://nope"}, 1, nil,
			[]string{"gatehouse: Demo server did not read gatehouse-demo://nope: Resource not found\n"}},
		{"prompts with their arguments", []string{"prompts", "Demo server"}, 0,
			[]string{"NAME          ARGUMENTS (* REQUIRED)  DESCRIPTION\nweekend_plan  city*, pace             Asks the model"}, nil},
		{"a prompt's messages", []string{"prompt", "Demo server", "weekend_plan", `{"city":"Oslo"}`}, 0,
			[]string{"A relaxed weekend in Oslo\n\n[user]\nPlan a relaxed weekend in Oslo for me.", "\n\n[user]\n[resource gatehouse-demo://forecast/Oslo]\n{\"city\":\"Oslo\""}, nil},
		{"a required argument missing", []string{"prompt", "Demo server", "weekend_plan", `{"pace":"busy"}`}, 1, nil,
			[]string{"gatehouse: The prompt weekend_plan needs city\n"}},
		{"prompt arguments that are a list", []string{"prompt", "Demo server", "weekend_plan", `{"city":["Oslo"]}`}, 1, nil,
			[]string{"gatehouse: The prompt argument city must be text (or a number), not a list or an object\n"}},
		{"read without a URI", []string{"read", "Demo server"}, 2, nil, []string{"gatehouse: read needs SERVER and URI, and optionally --out FILE\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := gh(t, dir, tc.args...)
			if code != tc.code {
				t.Errorf("code %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errOut)
			}
			for _, w := range tc.out {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.err {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
		})
	}
	if b, err := os.ReadFile(logo); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("the saved logo: %d bytes, %v", len(b), err)
	}
}

// TestCLI_ReadRefusesBinaryOnATerminal: binary data is not written to a
// terminal (here /dev/null, a character device as a terminal is); a pipe
// gets it.
func TestCLI_ReadRefusesBinaryOnATerminal(t *testing.T) {
	dir := t.TempDir()
	term, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	var errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: term, stderr: &errOut, dataDir: dir}
	code := e.run(context.Background(), []string{"read", "Demo server", "gatehouse-demo://logo.png"})
	want := "gatehouse: gatehouse-demo://logo.png is binary data (image/png, "
	if code != exitError || !strings.HasPrefix(errOut.String(), want) || !strings.Contains(errOut.String(), "bytes), which is not written to a terminal: save it with --out FILE") {
		t.Errorf("code %d, stderr %q", code, errOut.String())
	}
	code, out, _ := gh(t, dir, "read", "Demo server", "gatehouse-demo://logo.png")
	if code != 0 || !strings.HasPrefix(out, "\x89PNG") {
		t.Errorf("to a pipe: code %d, %d bytes", code, len(out))
	}
}
