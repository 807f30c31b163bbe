// A real TypeScript SDK MCP server (stdio) for Gatehouse's tests: its tools
// send form-mode elicitations and return what the client answered as JSON.
//
//   node elicit-server.mjs            speaks the newest protocol (2025-11-25):
//                                     every field type, titled and multi-select enums
//   node elicit-server.mjs --legacy   pins protocol 2025-06-18 and asks with the
//                                     legacy enumNames keyword
//
// In both, `defaults_echo` asks for a form whose every field but `city` has a
// default, and returns exactly the content it received (issue 10, E14).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const legacy = process.argv.includes("--legacy");
const server = new McpServer({ name: legacy ? "ts-elicit-legacy" : "ts-elicit", version: "1.0.0" });

if (legacy) {
  // Answer initialize with 2025-06-18 whatever the client asks for, as a
  // server from that revision would.
  const original = server.server._oninitialize.bind(server.server);
  server.server._oninitialize = async (request) => ({ ...(await original(request)), protocolVersion: "2025-06-18" });
}

const everyField = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", minLength: 1, maxLength: 50 },
    email: { type: "string", format: "email", title: "Email" },
    homepage: { type: "string", format: "uri", title: "Homepage" },
    birthday: { type: "string", format: "date", title: "Birthday" },
    meeting: { type: "string", format: "date-time", title: "Meeting" },
    age: { type: "integer", title: "Age", minimum: 0, maximum: 150 },
    height: { type: "number", title: "Height (m)", minimum: 0.5, maximum: 2.5 },
    subscribe: { type: "boolean", title: "Subscribe", default: true },
    color: { type: "string", title: "Colour", enum: ["red", "green", "blue"] },
    size: { type: "string", title: "Size", oneOf: [{ const: "s", title: "Small" }, { const: "l", title: "Large" }] },
    toppings: { type: "array", title: "Toppings", minItems: 1, maxItems: 2, items: { type: "string", enum: ["cheese", "olives", "basil"] } },
    extras: { type: "array", title: "Extras", items: { anyOf: [{ const: "x1", title: "Extra one" }, { const: "x2", title: "Extra two" }] } },
  },
  required: ["name", "email", "age", "color"],
};

const legacyForm = {
  type: "object",
  properties: {
    priority: { type: "string", title: "Priority", enum: ["p1", "p2", "p3"], enumNames: ["Urgent", "Normal", "Whenever"] },
    note: { type: "string", title: "Note" },
  },
  required: ["priority"],
};

// Every field type that can carry a default. The TypeScript SDK server only
// validates what it receives; it adds no defaults of its own.
const defaultsForm = {
  type: "object",
  properties: {
    city: { type: "string", title: "City" },
    units: { type: "string", title: "Units", default: "metric" },
    days: { type: "integer", title: "Days", minimum: 1, maximum: 14, default: 3 },
    threshold: { type: "number", title: "Rain threshold (mm)", default: 0.5 },
    alerts: { type: "boolean", title: "Send alerts", default: true },
    language: { type: "string", title: "Language", enum: ["en", "zh"], default: "en" },
    detail: { type: "string", title: "Detail", oneOf: [{ const: "short", title: "Short" }, { const: "long", title: "Long" }], default: "short" },
    layers: { type: "array", title: "Map layers", items: { type: "string", enum: ["rain", "wind", "clouds"] }, default: ["rain", "wind"] },
  },
  required: ["city"],
};

const ask = (message, requestedSchema) => async () => {
  const result = await server.server.elicitInput({ message, requestedSchema });
  return { content: [{ type: "text", text: JSON.stringify(result) }] };
};

if (legacy) {
  server.registerTool("legacy_enum", { description: "Asks with enumNames (2025-06-18)." },
    ask("How urgent is it?", legacyForm));
} else {
  server.registerTool("every_field", { description: "Asks for every field type." },
    ask("Tell us about yourself.", everyField));
}
server.registerTool("defaults_echo", { description: "Asks a form with defaults and returns what it received." },
  ask("Which forecast do you want?", defaultsForm));
server.registerTool("confirm", { description: "Asks a yes/no question." },
  ask("Proceed?", { type: "object", properties: { ok: { type: "boolean", title: "OK" } }, required: ["ok"] }));

await server.connect(new StdioServerTransport());
