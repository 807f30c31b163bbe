package mcp

import (
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Lists a server sends may name the same tool, resource, template, prompt,
// prompt argument or completion value twice. The protocol gives such a list
// no meaning, and the window keys its lists by those names (a repeated key
// stopped the view on the previous server's list: issue 22, item 10). The
// first of each is kept, the rest dropped, and the server's log says so.

// maxDuplicateNames bounds the names one notice lists: a server that repeats
// thousands of names gets one line, not thousands.
const maxDuplicateNames = 5

// unique returns items without the ones whose key an earlier item has, in
// order, and a notice in log naming what was dropped (what is "tool",
// "resource", ...; in is where, "" for the server's list). items is
// returned as it is when nothing repeats.
func unique[T any](log *serverLog, what, in string, items []T, key func(T) string) []T {
	seen := make(map[string]bool, len(items))
	var repeated []string
	out := items
	for i, item := range items {
		k := key(item)
		if !seen[k] {
			seen[k] = true
			if len(repeated) > 0 {
				out = append(out, item)
			}
			continue
		}
		if len(repeated) == 0 {
			out = append(make([]T, 0, len(items)-1), items[:i]...)
		}
		if !slices.Contains(repeated, k) {
			repeated = append(repeated, k)
		}
	}
	if len(repeated) > 0 && log != nil {
		log.event(duplicateNotice(what, in, repeated))
	}
	return out
}

// duplicateNotice is the log line for names a list repeated.
func duplicateNotice(what, in string, names []string) string {
	quoted := make([]string, 0, min(len(names), maxDuplicateNames))
	for _, n := range names[:min(len(names), maxDuplicateNames)] {
		quoted = append(quoted, fmt.Sprintf("%s %q", what, n))
	}
	list := strings.Join(quoted, ", ")
	if len(names) > maxDuplicateNames {
		list += fmt.Sprintf(" and %d more", len(names)-maxDuplicateNames)
	}
	where := "the server lists"
	if in != "" {
		where = in + " lists"
	}
	return where + " more than once: " + list + "; only the first of each is used"
}

// uniqueTools, uniqueResources, uniqueTemplates and uniquePrompts drop the
// repeated names of a server's lists; a prompt's arguments are made unique
// too (in a copy: the go-sdk's value is not changed).
func uniqueTools(log *serverLog, tools []*sdk.Tool) []*sdk.Tool {
	return unique(log, "tool", "", tools, func(t *sdk.Tool) string { return t.Name })
}

func uniqueResources(log *serverLog, resources []*sdk.Resource) []*sdk.Resource {
	return unique(log, "resource", "", resources, func(r *sdk.Resource) string { return r.URI })
}

func uniqueTemplates(log *serverLog, templates []*sdk.ResourceTemplate) []*sdk.ResourceTemplate {
	return unique(log, "template", "", templates, func(t *sdk.ResourceTemplate) string { return t.URITemplate })
}

func uniquePrompts(log *serverLog, prompts []*sdk.Prompt) []*sdk.Prompt {
	prompts = unique(log, "prompt", "", prompts, func(p *sdk.Prompt) string { return p.Name })
	for i, p := range prompts {
		args := unique(log, "argument", fmt.Sprintf("prompt %q", p.Name), p.Arguments, func(a *sdk.PromptArgument) string { return a.Name })
		if len(args) != len(p.Arguments) {
			c := *p
			c.Arguments = args
			prompts[i] = &c
		}
	}
	return prompts
}
