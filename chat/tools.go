package chat

import (
	"encoding/json"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/uiapp"
)

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
// The names are ToolNames': safe for every provider, unique across
// servers, and never in another server's name space.
func NewCatalog(servers []ServerTools) *Catalog { return newCatalog(servers, ToolNames) }

// NewQualifiedCatalog is NewCatalog with every name in its server's space
// (QualifiedNames): the tools the gateway offers another app.
func NewQualifiedCatalog(servers []ServerTools) *Catalog { return newCatalog(servers, QualifiedNames) }

func newCatalog(servers []ServerTools, naming func([]NamedServer) [][]string) *Catalog {
	named := make([]NamedServer, len(servers))
	offered := make([][]*sdk.Tool, len(servers))
	for i, s := range servers {
		named[i] = NamedServer{ID: s.ServerID, Name: s.ServerName}
		for _, t := range s.Tools {
			if ForModel(t) {
				offered[i] = append(offered[i], t)
				named[i].Tools = append(named[i].Tools, t.Name)
			}
		}
	}
	names := naming(named)
	c := &Catalog{byName: map[string]OfferedTool{}}
	for i, s := range servers {
		for j, t := range offered[i] {
			o := OfferedTool{Name: names[i][j], ServerID: s.ServerID, ServerName: s.ServerName, Tool: t}
			c.tools = append(c.tools, o)
			c.byName[o.Name] = o
		}
	}
	return c
}

// Offered returns the tools offered, in the servers' order and each
// server's: what a gateway lists to another client.
func (c *Catalog) Offered() []OfferedTool { return slices.Clone(c.tools) }

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
	return uiapp.ReadTool(t.Meta).ForModel
}

// HasApp reports whether a tool has an interface (MCP Apps) the window
// shows with its result: a ui:// resource in its _meta.ui (uiapp.ReadTool).
func HasApp(t *sdk.Tool) bool { return t != nil && uiapp.ReadTool(t.Meta).HasApp() }
