// A TypeScript SDK MCP server (stdio) whose tool has an effect a test can
// observe from outside: it keeps a ledger file, and it writes every JSON-RPC
// request it receives to that file before the SDK handles it. A test that
// must prove a tool call never reached the server reads the file: it shows
// the requests the server did get (initialize, tools/list) and no
// tools/call.
//
//   node ledger-server.mjs LEDGER-FILE
//
// Lines are "request METHOD [TOOL]" for each request, and "paid AMOUNT to
// NAME" for each payment the tool made.
import { appendFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const ledger = process.argv[2];
if (!ledger) {
  console.error("usage: node ledger-server.mjs LEDGER-FILE");
  process.exit(2);
}
const write = (line) => appendFileSync(ledger, line + "\n");

const server = new McpServer({ name: "ts-ledger", version: "1.0.0" });

server.registerTool(
  "send_payment",
  {
    title: "Send a payment",
    description: "Sends money from your account to someone.",
    inputSchema: { to: z.string(), amount: z.number() },
    annotations: { readOnlyHint: false, destructiveHint: true },
  },
  async ({ to, amount }) => {
    write(`paid ${amount} to ${to}`);
    return { content: [{ type: "text", text: `Sent ${amount} to ${to}.` }] };
  },
);

const transport = new StdioServerTransport();
await server.connect(transport);
// Record each request as it arrives, before the SDK sees it.
const handle = transport.onmessage;
transport.onmessage = (message, extra) => {
  if (message.method && message.id !== undefined) {
    const tool = message.method === "tools/call" ? ` ${message.params?.name}` : "";
    write(`request ${message.method}${tool}`);
  }
  handle(message, extra);
};
