// A TypeScript SDK MCP server (stdio) whose tools declare interfaces the way
// MCP Apps servers do (_meta.ui), for `gatehouse tools` to mark:
//   show-budget   _meta.ui.resourceUri, no visibility (model and app)
//   set-budget    _meta.ui.visibility ["app"]: only its app may call it
//   legacy-view   the deprecated flat key _meta["ui/resourceUri"]
//   model-view    visibility ["model"]: an interface, not callable by it
//   not-ui        a resourceUri that is not ui://: no interface
//   poll          visibility ["app"] and no resource of its own (as
//                 server-system-monitor's poll-system-stats): only for apps
//   model-only    visibility ["model"] and no resource: nothing to mark
//   plain         no _meta at all
// It imports the SDK from testdata/peers (make peers), by path: nothing
// here has node_modules of its own.
//
//   node app-tools.mjs
import { McpServer } from "../../testdata/peers/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js";
import { StdioServerTransport } from "../../testdata/peers/node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.js";

const server = new McpServer({ name: "app-tools", version: "1.0.0" });
const tools = {
  "show-budget": { ui: { resourceUri: "ui://budget/app.html" } },
  "set-budget": { ui: { resourceUri: "ui://budget/app.html", visibility: ["app"] } },
  "legacy-view": { "ui/resourceUri": "ui://legacy/app.html" },
  "model-view": { ui: { resourceUri: "ui://model/app.html", visibility: ["model"] } },
  "not-ui": { ui: { resourceUri: "https://example.com/app.html" } },
  poll: { ui: { visibility: ["app"] } },
  "model-only": { ui: { visibility: ["model"] } },
  plain: undefined,
};
for (const [name, meta] of Object.entries(tools)) {
  server.registerTool(name, { description: `The ${name} tool.`, ...(meta ? { _meta: meta } : {}) }, async () => ({
    content: [{ type: "text", text: `${name} ran` }],
  }));
}
await server.connect(new StdioServerTransport());
