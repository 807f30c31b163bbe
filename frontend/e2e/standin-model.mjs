// A stand-in for a model provider, for the end-to-end tests. No model can
// run on the machines Gatehouse is tested on, so this loopback HTTP server
// speaks OpenAI-compatible chat completions the way the vendors stream them
// and answers with replies the test scripts from each request it receives:
//
//   POST /v1/chat/completions  an SSE stream of `data: <chunk>` lines: the
//     same id in every chunk, the role in the first delta, text deltas,
//     tool_calls deltas by index (id, type and name only in a call's first
//     delta, its arguments split across the following ones), a last choice
//     with finish_reason, a usage chunk with "choices": [] when the request
//     asked for it (stream_options.include_usage), then `data: [DONE]`.
//   GET /v1/models             the model list.
//
// Every request, to any path, is recorded (hits), so a test can also prove
// that something was never fetched from it. The Go tests have their own
// stand-in (llm/llmtest); this one lets a test decide each reply from what
// the request carries: the last message, a tool result, the tools offered.

import { createServer } from 'node:http';

/** The model the stand-in says it is. */
export const standInModelName = 'standin-chat-1';

/**
 * A reply: what the stand-in streams for one request.
 * @typedef {object} Reply
 * @property {string} [reasoning] streamed first, as reasoning_content
 * @property {string} [text] streamed next, a few characters per chunk
 * @property {{name: string, arguments: object|string}[]} [toolCalls] streamed
 *   last; several are parallel calls (index 0, 1, ...)
 * @property {{input: number, output: number}} [usage] the token counts reported
 */

/**
 * Starts the stand-in on 127.0.0.1. reply(request) returns the Reply for a
 * parsed chat request (it may be changed later: model.reply = ...); a
 * request it has no answer for (undefined) gets HTTP 500 with an OpenAI
 * error body naming the last message, so that a test fails with a
 * sentence rather than a hang.
 *
 * Returns { baseUrl, origin, requests, hits, reply, nextRequest(), close() }:
 * requests are the parsed bodies of chat requests in arrival order, hits
 * every request as "METHOD /path".
 */
export async function startStandInModel({ reply = () => undefined } = {}) {
  const model = {
    reply,
    requests: [],
    hits: [],
    baseUrl: '',
    origin: '',
    waiters: [],
    /** Resolves with the next chat request that matches (default: any), arriving after this call. */
    nextRequest(match = () => true, timeoutMs = 30_000) {
      return new Promise((res, rej) => {
        const w = { match, res };
        const timer = setTimeout(() => {
          model.waiters = model.waiters.filter((x) => x !== w);
          rej(new Error(`the stand-in model got no matching request within ${timeoutMs} ms; it got ${model.requests.length} in all`));
        }, timeoutMs);
        w.res = (req) => {
          clearTimeout(timer);
          res(req);
        };
        model.waiters.push(w);
      });
    },
    close() {
      return new Promise((res) => {
        srv.closeAllConnections?.();
        srv.close(() => res());
      });
    },
  };

  const srv = createServer(async (req, res) => {
    model.hits.push(`${req.method} ${req.url}`);
    const body = await readBody(req);
    if (req.method === 'GET' && req.url === '/v1/models') {
      sendJSON(res, 200, {
        object: 'list',
        data: [{ id: standInModelName, object: 'model', created: 1735689600, owned_by: 'stand-in' }],
      });
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    let request;
    try {
      request = JSON.parse(body);
    } catch {
      sendJSON(res, 400, { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error' } });
      return;
    }
    model.requests.push(request);
    for (const w of [...model.waiters]) {
      if (w.match(request)) {
        model.waiters = model.waiters.filter((x) => x !== w);
        w.res(request);
      }
    }
    let answer;
    try {
      answer = await model.reply(request);
    } catch (e) {
      answer = undefined;
      console.error('stand-in model: reply failed:', e);
    }
    if (!answer) {
      const last = request.messages?.at(-1);
      sendJSON(res, 500, {
        error: {
          message: `The stand-in model has no scripted reply for a request ending in a ${last?.role} message: ${messageText(last).slice(0, 200)}`,
          type: 'server_error',
        },
      });
      return;
    }
    streamReply(res, request, answer);
  });
  await new Promise((res) => srv.listen(0, '127.0.0.1', res));
  model.origin = `http://127.0.0.1:${srv.address().port}`;
  model.baseUrl = `${model.origin}/v1`;
  return model;
}

let completions = 0;
let callIDs = 0;

/** Writes one reply as OpenAI's chat completions stream. */
function streamReply(res, request, answer) {
  const id = `chatcmpl-standin${++completions}`;
  const chunk = (delta, finish = null) => ({
    id,
    object: 'chat.completion.chunk',
    created: 1735689600,
    model: request.model ?? standInModelName,
    system_fingerprint: 'fp_standin',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  const send = (data) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);

  send(chunk({ role: 'assistant', content: '', refusal: null }));
  for (const piece of pieces(answer.reasoning ?? '', 6)) send(chunk({ content: null, reasoning_content: piece }));
  for (const piece of pieces(answer.text ?? '', 6)) send(chunk({ content: piece }));
  const calls = answer.toolCalls ?? [];
  calls.forEach((call, index) => {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    send(chunk({ tool_calls: [{ index, id: `call_standin${++callIDs}`, type: 'function', function: { name: call.name, arguments: '' } }] }));
    // The arguments in three parts, cut anywhere (inside a string or a number), as models stream them.
    for (const piece of pieces(args, Math.max(1, Math.ceil([...args].length / 3)))) {
      send(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  send(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  if (request.stream_options?.include_usage) {
    const u = answer.usage ?? { input: 100, output: 20 };
    send({
      id,
      object: 'chat.completion.chunk',
      created: 1735689600,
      model: request.model ?? standInModelName,
      system_fingerprint: 'fp_standin',
      choices: [],
      usage: { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output },
    });
  }
  send('[DONE]');
  res.end();
}

/** Splits text into pieces of n characters (never inside a character). */
function pieces(text, n) {
  const chars = [...text];
  const out = [];
  for (let i = 0; i < chars.length; i += n) out.push(chars.slice(i, i + n).join(''));
  return out;
}

function readBody(req) {
  return new Promise((res) => {
    const parts = [];
    req.on('data', (d) => parts.push(d));
    req.on('end', () => res(Buffer.concat(parts).toString('utf8')));
  });
}

function sendJSON(res, status, value) {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
}

/** A message's text, whether its content is a string or a list of parts. */
export function messageText(message) {
  const c = message?.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p === 'string' ? p : (p?.text ?? ''))).join('');
  return '';
}

/** The last message of a chat request. */
export function lastMessage(request) {
  return request.messages?.at(-1);
}

/** The tool results of a request (role "tool"), oldest first. */
export function toolResults(request) {
  return (request.messages ?? []).filter((m) => m.role === 'tool');
}

/**
 * Whether the request is a chat turn's (it offers tools) rather than a
 * server's sampling request (which offers none).
 */
export function offersTools(request) {
  return Array.isArray(request.tools) && request.tools.length > 0;
}

/**
 * The name under which the request offers a server's tool: the tool's own
 * name, or, when two servers have a tool of that name, the one Gatehouse
 * prefixes with the server's name ("Everything__echo"). serverName picks
 * among prefixed ones.
 */
export function offeredTool(request, tool, serverName = '') {
  const names = (request.tools ?? []).map((t) => t.function?.name).filter(Boolean);
  if (names.includes(tool)) return tool;
  const safe = (s) => s.replace(/[^A-Za-z0-9_-]/g, '_');
  // A server's prefix as chat.ToolNames makes it: safe, runs of '_' made one, outer '_' removed, at most 24 characters.
  const prefix = (s) =>
    safe(s)
      .replace(/_+/g, '_')
      .replace(/^_|_$/g, '')
      .slice(0, 24)
      .replace(/_+$/, '');
  const prefixed = names.filter((n) => n.endsWith(`__${safe(tool)}`));
  const pick = serverName ? prefixed.find((n) => n === `${prefix(serverName)}__${safe(tool)}`) : prefixed[0];
  if (!pick) throw new Error(`the request offers no tool ${tool}${serverName ? ` of ${serverName}` : ''}: ${names.join(', ')}`);
  return pick;
}

/** Sets up the stand-in model as a provider of the Gatehouse on page, through its bindings. */
export function addStandInProvider(page, model) {
  return page.evaluate(
    ([baseUrl, modelName]) =>
      window.go.app.ProvidersService.Add({
        name: 'Stand-in model',
        kind: 'openai',
        preset: '',
        baseUrl,
        model: modelName,
        apiKey: '',
        clearKey: false,
        quirks: {},
      }),
    [model.baseUrl, standInModelName],
  );
}
