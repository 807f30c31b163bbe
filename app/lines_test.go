package app

import (
	"maps"
	"testing"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

func TestParseEnvAndHeaders(t *testing.T) {
	env, headers := ParseEnv, ParseHeaders
	cases := []struct {
		name    string
		parse   func(string) (map[string]string, *i18n.Message)
		text    string
		want    map[string]string
		problem string
	}{
		{"NAME=value lines", env, "A=1\nB=two words", map[string]string{"A": "1", "B": "two words"}, ""},
		{"the value may contain =", env, "TOKEN=a=b=c", map[string]string{"TOKEN": "a=b=c"}, ""},
		{"an empty value is allowed", env, "EMPTY=", map[string]string{"EMPTY": ""}, ""},
		{"blank lines and a CR before the line break are skipped", env, "\r\nA=1\r\n  \n", map[string]string{"A": "1"}, ""},
		{"a line without = is explained", env, "A=1\nnope", map[string]string{"A": "1"}, "Line 2: write each variable as NAME=value."},
		{"a missing name is explained", env, "=x", map[string]string{}, "Line 1: write each variable as NAME=value."},
		{"a name with a space is explained", env, "MY VAR=1", map[string]string{}, "Line 1: a variable name cannot contain spaces."},
		{"a name twice is explained", env, "A=1\nA=2", map[string]string{"A": "1"}, "A is set twice."},
		{"Name: value lines, values trimmed", headers, "Authorization: Bearer x\nX-Id:7 ", map[string]string{"Authorization": "Bearer x", "X-Id": "7"}, ""},
		{"a header value may contain a colon", headers, "Authorization: Bearer a:b", map[string]string{"Authorization": "Bearer a:b"}, ""},
		{"a line without a colon is explained", headers, "Broken", map[string]string{}, "Line 1: write each header as Name: value."},
		{"a header name with a space is explained", headers, "X Id: 1", map[string]string{}, "Line 1: a header name cannot contain spaces."},
		{"header names are case-insensitive", headers, "A: 1\na: 2", map[string]string{"A": "1"}, "a is set twice."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, problem := tc.parse(tc.text)
			if !maps.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			text := ""
			if problem != nil {
				text = problem.String()
			}
			if text != tc.problem {
				t.Errorf("problem %q, want %q", text, tc.problem)
			}
		})
	}
}

// TestHeaderArg: the command line's --header takes the editor's "Name: value",
// and Name=value as it did before.
func TestHeaderArg(t *testing.T) {
	cases := []struct {
		name, arg, wantName, wantValue string
		ok                             bool
	}{
		{"Name: value, as curl", "Authorization: Bearer x", "Authorization", "Bearer x", true},
		{"a colon in the value", "X-Time: 10:30", "X-Time", "10:30", true},
		{"Name=value, as before", "X-Team=blue", "X-Team", "blue", true},
		{"an = in the value of Name: value", "X-Q: a=b", "X-Q", "a=b", true},
		{"a colon in the value of Name=value", "X-Time=10:30", "X-Time", "10:30", true},
		{"neither", "nope", "", "", false},
		{"no name", ": x", "", "", false},
		{"two lines are not one header", "A: 1\nB: 2", "", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			name, value, ok := HeaderArg(tc.arg)
			if name != tc.wantName || value != tc.wantValue || ok != tc.ok {
				t.Errorf("HeaderArg(%q) = %q, %q, %v; want %q, %q, %v", tc.arg, name, value, ok, tc.wantName, tc.wantValue, tc.ok)
			}
		})
	}
}

// TestServersService_EditorLines: the editor sends its env and header lines
// as written; Go reads them, says what is wrong with a line, and saves what
// they say.
func TestServersService_EditorLines(t *testing.T) {
	core, _ := openTestCore(t)
	svc := NewServersService(core)
	bad := ServerInput{Name: "Files", Transport: store.TransportStdio, Command: "npx", EnvLines: "ROOT=/tmp\noops"}
	if got := svc.Validate("", bad)["env"].String(); got != "Line 2: write each variable as NAME=value." {
		t.Errorf("env error = %q", got)
	}
	web := ServerInput{Name: "Web", Transport: store.TransportHTTP, URL: "https://example.com/mcp", HeaderLines: "X-Team blue"}
	if got := svc.Validate("", web)["headers"].String(); got != "Line 1: write each header as Name: value." {
		t.Errorf("headers error = %q", got)
	}

	good := ServerInput{Name: "Files", Transport: store.TransportStdio, Command: "npx", EnvLines: "ROOT=/tmp\n\nMODE=a=b"}
	view, err := svc.Add(good)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"ROOT": "/tmp", "MODE": "a=b"}; !maps.Equal(view.Input.Env, want) {
		t.Errorf("saved env = %v, want %v", view.Input.Env, want)
	}
	web.HeaderLines = "x-team: blue"
	view, err = svc.Add(web)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"X-Team": "blue"}; !maps.Equal(view.Input.Headers, want) {
		t.Errorf("saved headers = %v, want %v", view.Input.Headers, want)
	}
}
