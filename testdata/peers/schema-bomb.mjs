// A hostile TypeScript SDK MCP server (stdio) whose tools carry schemas built
// to make a host's JSON Schema check endless (issue 22, item 3). It uses the
// SDK's low-level Server, which sends the schemas as written and checks
// nothing itself.
//
//   node schema-bomb.mjs [LOG-FILE]
//
// Tools:
//   bomb_in    its inputSchema fans out: d_i = allOf[$ref d_i+1, $ref d_i+1],
//              32 levels, about 1.3 KB: 2^32 steps to check any arguments.
//   bomb_out   the same schema as its outputSchema; returns {} as
//              structuredContent.
//   deep_out   an outputSchema whose fan-out repeats at every level of the
//              value (a recursive schema), which only the value unrolls;
//              returns {"x": {"x": ...}} 40 levels deep: 2^40 steps.
//   heavy_in   an honest but costly inputSchema: each row of "rows" is
//              checked against 30 schemas.
//   heavy_out  the same as its outputSchema; returns {"rows": [...]} with
//              arguments.rows rows (100,000 unless given): seconds of
//              checking, for tests that stop a check while it runs.
//   dense_out  as costly to check in a result ten times smaller: each of
//              its 10,000 rows is checked against 300 schemas (for tests
//              where the result's size would measure its transport, not
//              the check).
//
// With LOG-FILE, every request is written there as "request METHOD [TOOL]"
// when it arrives, and "sent TOOL" once a tool's result has been written:
// a test can prove that a call never reached the server, or wait until the
// host has a result to check.
import { appendFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const logFile = process.argv[2];
const log = (line) => {
  if (logFile) appendFileSync(logFile, line + "\n");
};

// bomb is the schema: 32 levels of $defs, each two references to the next.
function bomb(levels) {
  const defs = {};
  for (let i = 0; i < levels; i++) {
    defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  }
  defs[`d${levels}`] = { type: "object" };
  return { type: "object", $defs: defs, allOf: [{ $ref: "#/$defs/d0" }] };
}

// recursive fans out at every level of the value it checks.
const recursive = {
  type: "object",
  $defs: { n: { type: "object", properties: { x: { allOf: [{ $ref: "#/$defs/n" }, { $ref: "#/$defs/n" }] } } } },
  $ref: "#/$defs/n",
};

function nested(depth) {
  let v = {};
  for (let i = 0; i < depth; i++) v = { x: v };
  return v;
}

const row = { type: "object", properties: { id: { type: "number" }, name: { type: "string" } }, required: ["id"] };
const costly = (schemas) => ({
  type: "object",
  properties: { rows: { type: "array", items: { allOf: Array.from({ length: schemas }, () => row) } } },
});
const heavy = costly(30);

const tools = [
  { name: "bomb_in", description: "Its input schema is a bomb.", inputSchema: bomb(32) },
  { name: "bomb_out", description: "Its output schema is a bomb.", inputSchema: { type: "object" }, outputSchema: bomb(32) },
  { name: "deep_out", description: "Its output schema fans out at every level.", inputSchema: { type: "object" }, outputSchema: recursive },
  { name: "heavy_in", description: "Its input schema is costly to check.", inputSchema: heavy },
  {
    name: "heavy_out",
    description: "Its output is costly to check.",
    inputSchema: { type: "object", properties: { rows: { type: "integer" } } },
    outputSchema: heavy,
  },
  { name: "dense_out", description: "Its small output is costly to check.", inputSchema: { type: "object" }, outputSchema: costly(300) },
];

const server = new Server({ name: "schema-bomb", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const name = req.params.name;
  let structuredContent = {};
  switch (name) {
    case "deep_out":
      structuredContent = nested(40);
      break;
    case "heavy_out":
    case "dense_out": {
      const n = req.params.arguments?.rows ?? (name === "dense_out" ? 10000 : 100000);
      structuredContent = { rows: Array.from({ length: n }, (_, i) => ({ id: i, name: "row" })) };
      break;
    }
  }
  return { content: [{ type: "text", text: `${name} done` }], structuredContent };
});

const transport = new StdioServerTransport();
await server.connect(transport);
const calls = new Map(); // request id → tool name
const handle = transport.onmessage;
transport.onmessage = (message, extra) => {
  if (message.method && message.id !== undefined) {
    const tool = message.method === "tools/call" ? ` ${message.params?.name}` : "";
    if (tool) calls.set(message.id, message.params.name);
    log(`request ${message.method}${tool}`);
  }
  handle(message, extra);
};
const send = transport.send.bind(transport);
transport.send = async (message, options) => {
  await send(message, options);
  if (message.id !== undefined && calls.has(message.id)) {
    log(`sent ${calls.get(message.id)}`);
    calls.delete(message.id);
  }
};
