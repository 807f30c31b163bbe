// The TypeScript SDK's client, as another app would use Gatehouse's gateway:
// it launches the command given (stdio), lists the tools, calls one, and
// prints what it got as one JSON line.
//
//   node gateway-client.mjs TOOL ARGS-JSON -- COMMAND [ARGS...]
//
// The command's environment is this process's (the SDK passes only a few
// variables by default).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const sep = process.argv.indexOf("--");
const [tool, argsJSON] = process.argv.slice(2, sep);
const [command, ...args] = process.argv.slice(sep + 1);
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
const client = new Client({ name: "ts-sdk-client", version: "1.32.2" });
await client.connect(transport);
const tools = await client.listTools();
const result = await client.callTool({ name: tool, arguments: JSON.parse(argsJSON) });
console.log(JSON.stringify({
  protocolVersion: transport._protocolVersion ?? null,
  server: client.getServerVersion(),
  tools: tools.tools.map((t) => t.name),
  result,
}));
await client.close();
