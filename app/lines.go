package app

import (
	"strings"
	"unicode"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// ParseEnv reads environment variables written one per line as NAME=value
// (the value is everything after the first "="), as the server editor
// takes them. Blank lines are skipped. A line it cannot read, or a name set
// twice, is the problem; the variables before it are returned with it.
func ParseEnv(text string) (map[string]string, *i18n.Message) {
	return parseLines(text, '=', false, func(n int, spaces bool) i18n.Message {
		if spaces {
			return i18n.M("editor.envSpaces", "n", n)
		}
		return i18n.M("editor.envLine", "n", n)
	})
}

// ParseHeaders reads HTTP headers written one per line as "Name: value",
// as the server editor, curl and HTTP itself write them; the value is
// trimmed and names are case-insensitive. Blank lines are skipped. A line
// it cannot read, or a name set twice, is the problem.
func ParseHeaders(text string) (map[string]string, *i18n.Message) {
	return parseLines(text, ':', true, func(n int, spaces bool) i18n.Message {
		if spaces {
			return i18n.M("editor.headerSpaces", "n", n)
		}
		return i18n.M("editor.headerLine", "n", n)
	})
}

// readLines returns in with the editor's lines read into Env and Headers,
// and the lines it could not read as field errors.
func readLines(in ServerInput) (ServerInput, FieldErrors) {
	errs := FieldErrors{}
	if in.EnvLines != "" {
		env, problem := ParseEnv(in.EnvLines)
		if problem != nil {
			errs["env"] = *problem
		}
		in.Env, in.EnvLines = env, ""
	}
	if in.HeaderLines != "" {
		headers, problem := ParseHeaders(in.HeaderLines)
		if problem != nil {
			errs["headers"] = *problem
		}
		in.Headers, in.HeaderLines = headers, ""
	}
	return in, errs
}

// HeaderArg reads one `servers add --header` value: "Name: value" as
// ParseHeaders reads a line, or Name=value, which the command line took
// before and still takes. ok is false when it is neither.
func HeaderArg(arg string) (name, value string, ok bool) {
	if eq := strings.IndexByte(arg, '='); eq >= 0 && !strings.Contains(arg[:eq], ":") {
		arg = arg[:eq] + ":" + arg[eq+1:]
	}
	h, problem := ParseHeaders(arg)
	if problem != nil || len(h) != 1 {
		return "", "", false
	}
	for name, value = range h {
	}
	return name, value, true
}

// parseLines reads name<sep>value lines; fold makes names case-insensitive
// and trims values. bad says what is wrong with line n: no name, or
// (spaces) a name with spaces in it.
func parseLines(text string, sep byte, fold bool, bad func(n int, spaces bool) i18n.Message) (map[string]string, *i18n.Message) {
	out := map[string]string{}
	seen := map[string]bool{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		at := strings.IndexByte(line, sep)
		if at < 0 || strings.TrimSpace(line[:at]) == "" {
			m := bad(i+1, false)
			return out, &m
		}
		name, value := strings.TrimSpace(line[:at]), line[at+1:]
		if strings.ContainsFunc(name, unicode.IsSpace) {
			m := bad(i+1, true)
			return out, &m
		}
		key := name
		if fold {
			key, value = strings.ToLower(name), strings.TrimSpace(value)
		}
		if seen[key] {
			m := i18n.M("editor.twice", "name", name)
			return out, &m
		}
		seen[key] = true
		out[name] = value
	}
	return out, nil
}
