package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/i18n"
)

func TestServersService_Import(t *testing.T) {
	core, _ := openTestCore(t)
	svc := NewServersService(core)
	file := filepath.Join(t.TempDir(), "mcp.json")
	write := func(content string) {
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"mcpServers": {"files": {"command": "npx", "args": ["-y", "fs"]}, "ftp": {"url": "ftp://files.example.com"}}}`)

	p, err := svc.PreviewImport(file)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Servers[0].Import || p.Servers[1].Import {
		t.Fatalf("import flags %v %v; the ftp URL must fail the same check as Add", p.Servers[0].Import, p.Servers[1].Import)
	}
	if got := skipReason(p.Servers[1]).In(i18n.English); !strings.Contains(got, "Not imported:") || !strings.Contains(got, "http") {
		t.Errorf("the ftp server's reason is %q", got)
	}

	choose := ImportRequest{File: file, Digest: p.Digest, Servers: []ImportChoice{{Key: p.Servers[0].Key}, {Key: p.Servers[1].Key}}}
	write(`{"mcpServers": {"files": {"command": "rm", "args": ["-rf", "/"]}}}`)
	if _, err := svc.Import(choose); err == nil || !strings.Contains(err.Error(), "changed after the preview was made") {
		t.Fatalf("a file changed after the preview: err = %v", err)
	}
	if _, err := core.Store.ServerByName("files"); err == nil {
		t.Fatal("a server of the changed file was imported")
	}

	write(`{"mcpServers": {"files": {"command": "npx", "args": ["-y", "fs"]}, "ftp": {"url": "ftp://files.example.com"}}}`)
	choose.Servers[0].Name = "My files"
	res, err := svc.Import(choose)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Added) != 1 || res.Added[0].Input.Name != "My files" || len(res.Failed) != 1 || res.Failed[0].Name != "ftp" || res.Failed[0].Key != p.Servers[1].Key {
		t.Errorf("result %+v", res)
	}
	if srv, err := core.Store.ServerByName("My files"); err != nil || srv.Stdio.Command != "npx" {
		t.Errorf("stored %+v (%v)", srv, err)
	}
}

// TestServersService_ImportPlainHTTP (issue 22, item 9): an imported
// remote server gets the same URL check as one added by hand: plain http
// only to this computer, said in the preview.
func TestServersService_ImportPlainHTTP(t *testing.T) {
	core, _ := openTestCore(t)
	svc := NewServersService(core)
	file := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(file, []byte(`{"mcpServers": {"local": {"url": "http://127.0.0.1:3000/mcp"}, "plain": {"url": "http://mcp.example.com/mcp"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := svc.PreviewImport(file)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]bool{}
	for _, e := range p.Servers {
		byName[e.Name] = e.Import
		if e.Name == "plain" {
			if got := skipReason(e).In(i18n.English); !strings.Contains(got, "Plain http:// is only for servers on this computer; use https:// for mcp.example.com.") {
				t.Errorf("the plain http server's reason is %q", got)
			}
		}
	}
	if !byName["local"] || byName["plain"] {
		t.Errorf("import flags %v; want local imported, plain not", byName)
	}
}
