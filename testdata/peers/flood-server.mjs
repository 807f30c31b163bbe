// A TypeScript SDK MCP server (stdio) that floods its client with
// notifications, for the tests of issue 22, item 7.
//
//   node flood-server.mjs [--fast]
//
// Tools:
//   list_flood {count, seconds}: changes its tool list count times over about
//     seconds, sending notifications/tools/list_changed after each change
//     (the list then holds the tool "v<N>" for the N-th change), and at the
//     end changes its prompts and resources once each (prompt "p1",
//     resource "flood://r1"). Its tools/list, prompts/list and
//     resources/list answers take a random 0 to 100 ms, each with the list
//     as it was when the request arrived, so that answers to requests made
//     one after another may come back in another order. With --fast they
//     answer at once.
//   progress_flood {count}: sends count progress notifications (1 to count
//     of count, the last one's message "done") as fast as it can, waits
//     1 s, and returns: the client handles notifications in order on one
//     goroutine while the call's answer overtakes them (go-sdk's jsonrpc2),
//     so on a loaded machine 200 ms was not always enough for the last one
//     to be handled while the call still ran.
//   stats: how many list requests of each kind came, and the most that were
//     in flight at once, as JSON text.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const server = new Server(
  { name: "ts-flood", version: "1.0.0" },
  { capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } } },
);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fast = process.argv.includes("--fast");
const version = { tools: 0, prompts: 0, resources: 0 };
const stats = {};
for (const kind of Object.keys(version)) stats[kind] = { requests: 0, inFlight: 0, maxInFlight: 0 };

// listed answers a list request of kind with make(version at arrival),
// after a random delay.
async function listed(kind, make) {
  const s = stats[kind];
  const v = version[kind];
  s.requests++;
  s.inFlight++;
  s.maxInFlight = Math.max(s.maxInFlight, s.inFlight);
  try {
    if (!fast) await sleep(Math.random() * 100);
    return make(v);
  } finally {
    s.inFlight--;
  }
}

const object = { type: "object", properties: {} };
const fixedTools = [
  { name: "list_flood", inputSchema: { type: "object", properties: { count: { type: "number" }, seconds: { type: "number" } } } },
  { name: "progress_flood", inputSchema: { type: "object", properties: { count: { type: "number" } } } },
  { name: "stats", inputSchema: object },
];

server.setRequestHandler(ListToolsRequestSchema, () =>
  listed("tools", (v) => ({ tools: [...fixedTools, { name: `v${v}`, inputSchema: object }] })),
);
server.setRequestHandler(ListPromptsRequestSchema, () =>
  listed("prompts", (v) => ({ prompts: v ? [{ name: `p${v}` }] : [] })),
);
server.setRequestHandler(ListResourcesRequestSchema, () =>
  listed("resources", (v) => ({ resources: v ? [{ uri: `flood://r${v}`, name: `r${v}` }] : [] })),
);

const text = (t) => ({ content: [{ type: "text", text: t }] });

server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
  const args = req.params.arguments ?? {};
  switch (req.params.name) {
    case "list_flood": {
      const count = args.count ?? 10000;
      const ticks = Math.max(1, Math.round(((args.seconds ?? 10) * 1000) / 10));
      let sent = 0;
      for (let tick = 1; tick <= ticks; tick++) {
        const until = Math.round((count * tick) / ticks);
        for (; sent < until; sent++) {
          version.tools++;
          await server.sendToolListChanged();
        }
        await sleep(10);
      }
      version.prompts++;
      await server.sendPromptListChanged();
      version.resources++;
      await server.sendResourceListChanged();
      return text(`sent ${sent}`);
    }
    case "progress_flood": {
      const count = args.count ?? 10000;
      const token = req.params._meta?.progressToken;
      if (token === undefined) return text("no progress token");
      for (let i = 1; i <= count; i++) {
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: i, total: count, message: i === count ? "done" : `step ${i}` },
        });
      }
      await sleep(1000);
      return text(`sent ${count}`);
    }
    case "stats":
      return text(JSON.stringify(stats));
  }
  throw new Error(`no tool ${req.params.name}`);
});

await server.connect(new StdioServerTransport());
