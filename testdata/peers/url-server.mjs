// A TypeScript SDK MCP server (stdio) for Gatehouse's URL mode tests: it
// sends URL-mode elicitations, fails a call with URLElicitationRequired
// (-32042), and sends notifications/elicitation/complete, on its own or for
// any id it is given.
//
//   node url-server.mjs
//
// Tools:
//   open_page {url?, completeAfterMs?}  asks in URL mode; after accept, sends
//                                       the completion for its id after
//                                       completeAfterMs (default 300).
//                                       Returns "accept <id>", "decline" or "cancel".
//   needs_url {url?, always?}           the first call fails with -32042 (one URL
//                                       elicitation) and the completion follows
//                                       500 ms later; later calls return
//                                       "authorized (attempt N)", N counting calls.
//                                       With always: true it fails every time with
//                                       the same elicitationId and never completes.
//   complete_id {elicitationId}         sends a completion for any id; returns "sent".
//
// The TypeScript SDK sends URL requests and completions only to a client
// that declared elicitation.url.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";

const server = new McpServer({ name: "url-peer", version: "1.0.0" });
const text = (t) => ({ content: [{ type: "text", text: t }] });

// completeLater sends the completion for id after ms, if the client can
// receive it at all.
const completeLater = (id, ms) => {
  let notify;
  try {
    notify = server.server.createElicitationCompletionNotifier(id);
  } catch {
    return;
  }
  setTimeout(() => notify().catch(() => {}), ms);
};

server.registerTool("open_page", {
  description: "Asks you to open a page (URL mode) and says it is done a little later.",
  inputSchema: { url: z.string().optional(), completeAfterMs: z.number().optional() },
}, async ({ url, completeAfterMs }) => {
  const elicitationId = randomUUID();
  const result = await server.server.elicitInput({
    mode: "url",
    message: "Open the page to continue.",
    url: url ?? "https://example.com/continue",
    elicitationId,
  });
  if (result.action !== "accept") return text(result.action);
  completeLater(elicitationId, completeAfterMs ?? 300);
  return text(`accept ${elicitationId}`);
});

// needs_url state: this is a stdio server, so one process is one session.
const alwaysId = randomUUID();
let attempts = 0;
server.registerTool("needs_url", {
  description: "Fails with URLElicitationRequired (-32042) on the first call, then succeeds.",
  inputSchema: { url: z.string().optional(), always: z.boolean().optional() },
}, async ({ url, always }) => {
  const elicitation = (elicitationId) => ({
    mode: "url",
    message: "Authorize first.",
    url: url ?? "https://example.com/authorize",
    elicitationId,
  });
  if (always) throw new UrlElicitationRequiredError([elicitation(alwaysId)]);
  attempts++;
  if (attempts === 1) {
    const id = randomUUID();
    completeLater(id, 500);
    throw new UrlElicitationRequiredError([elicitation(id)]);
  }
  return text(`authorized (attempt ${attempts})`);
});

server.registerTool("complete_id", {
  description: "Sends notifications/elicitation/complete for the given id.",
  inputSchema: { elicitationId: z.string() },
}, async ({ elicitationId }) => {
  await server.server.createElicitationCompletionNotifier(elicitationId)();
  return text("sent");
});

await server.connect(new StdioServerTransport());
