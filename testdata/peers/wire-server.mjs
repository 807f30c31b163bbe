// An MCP server (stdio) that writes its JSON-RPC by hand, for the tests of
// what Gatehouse passes on as it was written (the gateway's forwarded
// calls): its results carry a field no SDK knows, its responses put
// "result" before "id" (as the TypeScript SDK does), and it can exit in
// the middle of a call or ask for a web page first (-32042).
//
// Tools:
//   vendor      answers with a field of its own ("vendorField") and a _meta
//   echo-params answers with the params it received, as text
//   exit        exits (code 3) without answering
//   needs-page  answers -32042 (URL elicitation required), every time
//   calls       answers how many tools/call it received before this one
//
//   node wire-server.mjs
import { createInterface } from "node:readline";

const tools = ["vendor", "echo-params", "exit", "needs-page", "calls"].map((name) => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: "object", properties: {} },
}));
const versions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
let calls = 0;

const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");
const answer = (id, result) => send({ result, jsonrpc: "2.0", id });
const fail = (id, code, message, data) => send({ jsonrpc: "2.0", id, error: { code, message, data } });
const text = (t) => ({ content: [{ type: "text", text: t }] });

createInterface({ input: process.stdin }).on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.id === undefined || msg.id === null) return; // a notification
  const p = msg.params ?? {};
  switch (msg.method) {
    case "initialize":
      return answer(msg.id, {
        protocolVersion: versions.includes(p.protocolVersion) ? p.protocolVersion : versions[0],
        capabilities: { tools: {} },
        serverInfo: { name: "wire-server", version: "1.0.0" },
      });
    case "ping":
      return answer(msg.id, {});
    case "tools/list":
      return answer(msg.id, { tools });
    case "tools/call":
      calls++;
      switch (p.name) {
        case "vendor":
          return answer(msg.id, { ...text("as written"), vendorField: { kept: true }, _meta: { "example.com/trace": "t-1" } });
        case "echo-params":
          return answer(msg.id, text(JSON.stringify(p)));
        case "exit":
          return process.exit(3);
        case "needs-page":
          return fail(msg.id, -32042, "A page must be visited first", {
            elicitations: [{ mode: "url", elicitationId: `page-${calls}`, url: "https://example.com/sign-in", message: "Sign in" }],
          });
        case "calls":
          return answer(msg.id, text(String(calls - 1)));
      }
      return fail(msg.id, -32602, `Unknown tool: ${p.name}`);
  }
  fail(msg.id, -32601, `Method not found: ${msg.method}`);
});
