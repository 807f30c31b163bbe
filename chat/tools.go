package chat

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// maxToolName is the longest tool name every provider accepts (OpenAI: 64).
const maxToolName = 64

// OfferedTool is one server tool as the model sees it.
type OfferedTool struct {
	// Name is unique among the offered tools and made only of letters,
	// digits, '_' and '-', as providers require.
	Name       string
	ServerID   string
	ServerName string
	Tool       *sdk.Tool
}

// Catalog is the tools offered to the model in one turn, by offered name.
type Catalog struct {
	tools  []OfferedTool
	byName map[string]OfferedTool
}

// ServerTools are one server's tools, as the manager listed them.
type ServerTools struct {
	ServerID   string
	ServerName string
	Tools      []*sdk.Tool
}

// NewCatalog offers the servers' tools to the model. A tool whose
// _meta.ui.visibility leaves out the model (MCP Apps) is not offered.
// Names are made safe for every provider and unique across servers: a name
// two servers share is prefixed with its server's name.
func NewCatalog(servers []ServerTools) *Catalog {
	count := map[string]int{}
	for _, s := range servers {
		for _, t := range s.Tools {
			if ForModel(t) {
				count[safeName(t.Name)]++
			}
		}
	}
	c := &Catalog{byName: map[string]OfferedTool{}}
	for _, s := range servers {
		for _, t := range s.Tools {
			if !ForModel(t) {
				continue
			}
			name := safeName(t.Name)
			if count[name] > 1 {
				name = safeName(s.ServerName + "__" + t.Name)
			}
			name = c.unique(name)
			o := OfferedTool{Name: name, ServerID: s.ServerID, ServerName: s.ServerName, Tool: t}
			c.tools = append(c.tools, o)
			c.byName[name] = o
		}
	}
	return c
}

// unique shortens name to maxToolName and numbers it when taken.
func (c *Catalog) unique(name string) string {
	name = truncateName(name, maxToolName)
	if _, taken := c.byName[name]; !taken {
		return name
	}
	for i := 2; ; i++ {
		suffix := fmt.Sprintf("_%d", i)
		candidate := truncateName(name, maxToolName-len(suffix)) + suffix
		if _, taken := c.byName[candidate]; !taken {
			return candidate
		}
	}
}

// Lookup returns the tool a model's call names.
func (c *Catalog) Lookup(name string) (OfferedTool, bool) {
	o, ok := c.byName[name]
	return o, ok
}

// Tools returns the tools to offer in a request.
func (c *Catalog) Tools() []llm.Tool {
	out := make([]llm.Tool, 0, len(c.tools))
	for _, o := range c.tools {
		schema, _ := json.Marshal(o.Tool.InputSchema)
		desc := o.Tool.Description
		if o.Tool.Title != "" && !strings.Contains(desc, o.Tool.Title) {
			desc = strings.TrimSpace(o.Tool.Title + ". " + desc)
		}
		out = append(out, llm.Tool{Name: o.Name, Description: desc, InputSchema: schema})
	}
	return out
}

// ForModel reports whether a tool may be offered to a model: MCP Apps'
// _meta.ui.visibility, when present, must include "model", and the tool
// must not need an MCP task, which Gatehouse cannot run yet (mcp.NeedsTask).
func ForModel(t *sdk.Tool) bool {
	if mcp.NeedsTask(t) {
		return false
	}
	ui, _ := t.Meta["ui"].(map[string]any)
	vis, has := ui["visibility"].([]any)
	if !has {
		return true
	}
	return slices.ContainsFunc(vis, func(v any) bool { return v == "model" })
}

// safeName keeps letters, digits, '_' and '-', and turns anything else into
// '_'.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "tool"
	}
	return b.String()
}

func truncateName(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
