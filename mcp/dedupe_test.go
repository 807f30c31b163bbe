package mcp

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestManager_DuplicateNames: a server that names a tool, resource,
// template, prompt, prompt argument or completion value twice has each
// shown once, the first it listed, and its log says what was dropped
// (issue 22, item 10: the window's lists are keyed by these names).
func TestManager_DuplicateNames(t *testing.T) {
	m, _ := contentManager(t, "2025-06-18")
	srv := peerServer(t, "dups", "hostile", map[string]string{"HOSTILE_DUPLICATES": "1"})
	m.Set(srv)
	connected(t, m, srv.ID)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	waitFor(t, "the tools listed", 10*time.Second, func() bool { tools, _ := m.Tools(srv.ID); return len(tools) > 0 })

	cases := []struct {
		name    string
		got     func(t *testing.T) string
		want    string
		logLine string
	}{
		{"a tool listed twice is the first one", func(t *testing.T) string {
			tools, err := m.Tools(srv.ID)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, tl := range tools {
				out = append(out, tl.Name+":"+tl.Description)
			}
			return strings.Join(out, ",")
		}, "echo:first,other:", `the server lists more than once: tool "echo"; only the first of each is used`},
		{"a prompt listed twice is the first, its repeated argument once", func(t *testing.T) string {
			prompts, err := m.Prompts(srv.ID)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, p := range prompts {
				var args []string
				for _, a := range p.Arguments {
					args = append(args, fmt.Sprintf("%s/%v", a.Name, a.Required))
				}
				out = append(out, p.Name+":"+p.Description+"("+strings.Join(args, " ")+")")
			}
			return strings.Join(out, ",")
		}, "twice:first(topic/true tone/false)", `prompt "twice" lists more than once: argument "topic";`},
		{"a resource and a template listed twice are the first ones", func(t *testing.T) string {
			list, err := m.ResourceList(ctx, srv.ID)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, r := range list.Resources {
				out = append(out, r.URI+":"+r.Name)
			}
			for _, x := range list.Templates {
				out = append(out, x.URITemplate+":"+x.Name)
			}
			return strings.Join(out, ",")
		}, "dup://a:first,dup://b:b,dup://{id}/{id}:first", `the server lists more than once: template "dup://{id}/{id}";`},
		{"the resources the session keeps are unique too", func(t *testing.T) string {
			res, err := m.Resources(srv.ID)
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprint(len(res))
		}, "2", `the server lists more than once: resource "dup://a";`},
		{"a completion value suggested twice is suggested once", func(t *testing.T) string {
			res, err := m.Complete(ctx, srv.ID, CompletionRef{Prompt: "twice"}, "topic", "a", nil)
			if err != nil {
				t.Fatal(err)
			}
			return strings.Join(res.Values, ",")
		}, "alpha,beta", `the completion of "topic" lists more than once: value "alpha", value "beta";`},
		{"a variable a template names twice is one variable", func(t *testing.T) string {
			vars, err := TemplateVariables("dup://{id}/{id}{?q,id}")
			if err != nil {
				t.Fatal(err)
			}
			return strings.Join(vars, ",")
		}, "id,q", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.got(t); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			log, _ := m.Log(srv.ID)
			if !strings.Contains(log, tc.logLine) {
				t.Errorf("the log lacks %q:\n%s", tc.logLine, log)
			}
		})
	}
}

func TestDuplicateNotice(t *testing.T) {
	tests := []struct {
		name, what, in string
		names          []string
		want           string
	}{
		{"one name in the server's list", "tool", "", []string{"echo"}, `the server lists more than once: tool "echo"; only the first of each is used`},
		{"a name in a prompt", "argument", `prompt "p"`, []string{"a", "b"}, `prompt "p" lists more than once: argument "a", argument "b"; only the first of each is used`},
		{"many names are counted, not all listed", "value", "", []string{"1", "2", "3", "4", "5", "6", "7"},
			`the server lists more than once: value "1", value "2", value "3", value "4", value "5" and 2 more; only the first of each is used`},
		{"a name is quoted, control characters and all", "resource", "", []string{"a\nb"}, `the server lists more than once: resource "a\nb"; only the first of each is used`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := duplicateNotice(tt.what, tt.in, tt.names); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestUniqueKeepsAListWithoutRepeats(t *testing.T) {
	in := []string{"a", "b", "c"}
	out := unique(nil, "value", "", in, func(s string) string { return s })
	if &out[0] != &in[0] || len(out) != 3 {
		t.Errorf("a list without repeats was copied or changed: %v", out)
	}
	if got := unique(nil, "value", "", []string{"a", "a", "b", "a", "c", "b"}, func(s string) string { return s }); strings.Join(got, "") != "abc" {
		t.Errorf("got %v", got)
	}
}
