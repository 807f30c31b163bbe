// Command genlicences writes app/licences.json: what the gatehouse binary
// has compiled in, each with its version and licence, for Settings → About.
// `go generate ./app/` runs it (app/about.go); app's tests fail when the
// list no longer matches what the binary compiles in.
//
// The modules are the ones `go list -deps` finds for the program and
// gatehouse-gateway with the production build's tags; the licence names
// (DEP-5 short names) come from packaging/linux/bundled.txt, which the .deb's
// copyright file is written from too, and each is checked against the
// module's own LICENSE file in the module cache. The JavaScript packages are
// bundled.txt's npm lines, their versions read from frontend/node_modules.
// The output depends only on go.mod/go.sum, the toolchain, bundled.txt and
// the frontend's lockfile: the same inputs give the same bytes.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Module is one thing compiled in; the fields are app.CompiledIn's.
type Module struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Version string `json:"version"`
	Licence string `json:"licence"`
}

// List is the file's content.
type List struct {
	Gatehouse string   `json:"gatehouse"`
	Modules   []Module `json:"modules"`
}

// prodTags are the Makefile's PROD_TAGS.
const prodTags = "desktop,production,webkit2_41"

func main() {
	root := flag.String("root", "..", "the repository's root")
	out := flag.String("out", "licences.json", "the file to write")
	flag.Parse()
	list, err := build(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genlicences:", err)
		os.Exit(1)
	}
	data, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		fmt.Fprintln(os.Stderr, "genlicences:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genlicences:", err)
		os.Exit(1)
	}
}

func build(root string) (List, error) {
	bundled, err := readBundled(filepath.Join(root, "packaging/linux/bundled.txt"))
	if err != nil {
		return List{}, err
	}
	list := List{Gatehouse: "Apache-2.0"}
	goVersion, err := run(root, "go", "env", "GOVERSION")
	if err != nil {
		return List{}, err
	}
	goroot, err := run(root, "go", "env", "GOROOT")
	if err != nil {
		return List{}, err
	}
	if err := checkLicenceFile(strings.TrimSpace(goroot), bundled["go:std"]); err != nil {
		return List{}, fmt.Errorf("the Go standard library: %w", err)
	}
	list.Modules = append(list.Modules, Module{Kind: "go", Name: "std", Version: strings.TrimSpace(goVersion), Licence: bundled["go:std"]})
	deps, err := run(root, "go", "list", "-deps", "-tags", prodTags,
		"-f", "{{with .Module}}{{if not .Main}}{{.Path}}\t{{.Version}}\t{{.Dir}}{{end}}{{end}}", ".", "./cmd/gatehouse-gateway")
	if err != nil {
		return List{}, err
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(deps, "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 || seen[f[0]] {
			continue
		}
		seen[f[0]] = true
		licence := bundled["go:"+f[0]]
		if licence == "" {
			return List{}, fmt.Errorf("the Go module %s is compiled in but packaging/linux/bundled.txt does not say its licence: read its LICENSE and add a line", f[0])
		}
		if err := checkLicenceFile(f[2], licence); err != nil {
			return List{}, fmt.Errorf("%s: %w", f[0], err)
		}
		list.Modules = append(list.Modules, Module{Kind: "go", Name: f[0], Version: f[1], Licence: licence})
	}
	for key, licence := range bundled {
		name, ok := strings.CutPrefix(key, "npm:")
		if !ok {
			continue
		}
		dir := filepath.Join(root, "frontend/node_modules", name)
		raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err != nil {
			return List{}, fmt.Errorf("read the version of %s (build the frontend first): %w", name, err)
		}
		var pkg struct{ Version string }
		if err := json.Unmarshal(raw, &pkg); err != nil || pkg.Version == "" {
			return List{}, fmt.Errorf("read the version of %s: %v", name, err)
		}
		if err := checkLicenceFile(dir, licence); err != nil {
			return List{}, fmt.Errorf("%s: %w", name, err)
		}
		list.Modules = append(list.Modules, Module{Kind: "npm", Name: name, Version: pkg.Version, Licence: licence})
	}
	sort.Slice(list.Modules, func(i, j int) bool {
		a, b := list.Modules[i], list.Modules[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if (a.Name == "std") != (b.Name == "std") {
			return a.Name == "std" // the Go standard library first
		}
		return a.Name < b.Name
	})
	return list, nil
}

// readBundled reads bundled.txt: "kind:name" → licence.
func readBundled(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("%s: not kind<TAB>name<TAB>licence: %q", path, line)
		}
		m[f[0]+":"+f[1]] = f[2]
	}
	return m, sc.Err()
}

// Marks of the licence texts bundled.txt names, as they read in a LICENSE file.
var marks = []struct {
	licence string
	re      *regexp.Regexp
}{
	{"Apache-2.0", regexp.MustCompile(`(?is)apache license.{0,40}version 2\.0`)},
	{"Expat", regexp.MustCompile(`(?is)permission is hereby granted, free of charge`)},
	{"ISC", regexp.MustCompile(`(?is)permission to use, copy, modify,? and(/or)? distribute this software for any`)},
	{"BSD-3-Clause", regexp.MustCompile(`(?is)redistribution and use in source and binary forms.*(neither the name|the names? of (its|the) (contributors|copyright holder))`)},
	{"BSD-2-Clause", regexp.MustCompile(`(?is)redistribution and use in source and binary forms`)},
}

// checkLicenceFile checks that dir has a licence file and that one of the
// licences named (one, or several joined by " and ") is what it says (a
// BSD-3-Clause text matches the BSD-2-Clause mark too, as it should).
func checkLicenceFile(dir, licence string) error {
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	var text bytes.Buffer
	for _, f := range files {
		base := strings.ToLower(filepath.Base(f))
		if strings.HasPrefix(base, "licen") || strings.HasPrefix(base, "copying") {
			if b, err := os.ReadFile(f); err == nil {
				text.Write(b)
				text.WriteByte('\n')
			}
		}
	}
	if text.Len() == 0 {
		return errors.New("has no LICENSE or COPYING file in " + dir)
	}
	body := regexp.MustCompile(`\s+`).ReplaceAllString(text.String(), " ")
	named := strings.Split(licence, " and ")
	for _, m := range marks {
		if !m.re.MatchString(body) {
			continue
		}
		for _, n := range named {
			if n == m.licence {
				return nil
			}
		}
	}
	return fmt.Errorf("its licence file does not read as %s (bundled.txt); check both", licence)
}

func run(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}
