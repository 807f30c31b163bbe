// P2: a TypeScript SDK client (@modelcontextprotocol/sdk, what MCP Inspector
// v1 and many hosts are built on) with an auto-accept elicitation handler,
// driven by the Go benchmark over a line protocol so that its batches
// interleave with the other clients':
//
//   node tsclient.mjs SERVER-COMMAND [ARGS...]
//   stdin:  "run N"  -> calls the server's elicit_loop {n: N}
//           "quit"   -> closes the session and exits
//   stdout: one JSON line per command: the tool's result ({"ns":[...],"bad":k})
//           or {"error": "..."}; first {"ready": true}.
//
// The handler answers accept with the values every benchmark client sends;
// the SDK itself validates them against the requested schema, as it does for
// any host built on it.
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const answer = { name: 'Ada Lovelace', email: 'ada@example.com', guests: 2, newsletter: true, track: 'go' };
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node tsclient.mjs SERVER-COMMAND [ARGS...]');
  process.exit(2);
}

const client = new Client({ name: 'ts-bench', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { ...answer } }));
const transport = new StdioClientTransport({ command, args, stderr: 'inherit' });
await client.connect(transport);

const out = (v) => process.stdout.write(JSON.stringify(v) + '\n');
out({ ready: true });

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const [cmd, n] = line.trim().split(/\s+/);
  if (cmd === 'quit') break;
  if (cmd !== 'run') {
    out({ error: `unknown command ${cmd}` });
    continue;
  }
  try {
    const res = await client.callTool({ name: 'elicit_loop', arguments: { n: Number(n) } }, undefined, { timeout: 600_000 });
    if (res.isError) out({ error: res.content?.[0]?.text ?? 'tool error' });
    else out(JSON.parse(res.content[0].text));
  } catch (e) {
    out({ error: String(e?.message ?? e) });
  }
}
await client.close();
process.exit(0);
