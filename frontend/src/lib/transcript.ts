// A conversation's transcript as one list of blocks, from its stored
// messages and the turn running now. One list, keyed so that a block of the
// running turn and the stored message it becomes share their key: the
// window keeps the same card, and an app shown in it (MCP Apps) keeps
// running, with its state, when the turn ends.
import type { ChatMessage, JsonNode, Message, Progress, StoredToolCall } from './api';
import { unfinishedFrom, type LiveTurn } from './chat.svelte';

/** One tool call's card, from a stored message or the running turn. */
export interface CardCall {
  id: string;
  serverId: string;
  serverName: string;
  tool: string;
  view?: JsonNode;
  state: string;
  result: string;
  /** Gatehouse's note on a call of the running turn (a stored call's is its state's). */
  note: Message | null;
  dropped: boolean;
  progress: Progress | null;
  /** The tool has an interface (MCP Apps). */
  app: boolean;
  /** The call belongs to the running turn (it can be cancelled). */
  live: boolean;
}

/** A chip of an attached resource. */
export interface Chip {
  serverName: string;
  name: string;
  uri: string;
  size: number;
}

/** One block of the transcript: what the person sent, or one answer of the model with its calls. */
export type Block =
  | { key: string; kind: 'user'; text: string; chips: Chip[]; truncated: string }
  | {
      key: string;
      kind: 'answer';
      reasoning: string;
      text: string;
      /** The text is still streaming. */
      streaming: boolean;
      calls: CardCall[];
      error: string;
      usage: { input: number; output: number } | null;
      truncated: string;
    }
  /** A stored message drawn only by its note (a tool result cut to fit). */
  | { key: string; kind: 'note'; truncated: string };

/**
 * The transcript's blocks: the stored messages in order, then the running
 * turn's. An answer with tool calls is keyed by its first call's ID and how
 * many answers between origin (a Seq) and it began with that ID (a model
 * may use an ID again in a later turn), whether it is stored or still
 * running; one before origin by how many between it and origin did, as a
 * negative number. So the older pages of a long conversation, read as the
 * person scrolls up, change no key (a row's measured height and the place
 * on screen stay). Every other block is keyed by its message's Seq, or its
 * place in the running turn.
 */
export function transcriptBlocks(
  messages: ChatMessage[],
  live: LiveTurn | undefined,
  serverName: (id: string) => string,
  origin = 0,
): Block[] {
  const results = new Map(messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId ?? '', m]));
  const openFrom = unfinishedFrom(messages);
  const seen = new Map<string, number>();
  const callsKey = (firstID: string): string => {
    const n = seen.get(firstID) ?? 0;
    seen.set(firstID, n + 1);
    return `calls:${n}:${firstID}`;
  };
  // The keys of the answers before origin, counted from origin backwards.
  const olderKeys = new Map<number, string>();
  const back = new Map<string, number>();
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    const first = m.toolCalls?.[0]?.id;
    if (m.seq >= origin || m.role !== 'assistant' || first === undefined) continue;
    const n = (back.get(first) ?? 0) - 1;
    back.set(first, n);
    olderKeys.set(i, `calls:${n}:${first}`);
  }

  /** What became of a stored call of the message at index i (see ChatMessages). */
  function stored(call: StoredToolCall, i: number): CardCall {
    const m = results.get(call.id);
    const r = m?.toolResult;
    let state: string;
    let result = '';
    if (!r) {
      // Without a result: not run when its turn was stopped; interrupted when Gatehouse closed while it ran.
      state = i >= openFrom ? 'interrupted' : 'not-run';
    } else {
      result = typeof r.content === 'string' ? r.content : r.content === undefined ? '' : JSON.stringify(r.content, null, 2);
      state = r.interrupted ? 'interrupted' : r.denied ? 'denied' : r.isError ? 'failed' : 'done';
    }
    return {
      id: call.id,
      serverId: call.serverId,
      serverName: serverName(call.serverId),
      tool: call.tool || call.name || '',
      view: call.view,
      state,
      result,
      note: null,
      dropped: !!r && !!m?.dropped,
      progress: null,
      app: !!call.app,
      live: false,
    };
  }

  const blocks: Block[] = [];
  messages.forEach((m, i) => {
    const truncated = m.truncated ?? '';
    if (m.role === 'user') {
      const chips = (m.attachments ?? []).map((a) => ({ serverName: a.serverName, name: a.name, uri: a.uri, size: a.size }));
      blocks.push({ key: `m${m.seq}`, kind: 'user', text: m.text ?? '', chips, truncated });
    } else if (m.role === 'assistant') {
      const calls = (m.toolCalls ?? []).map((c) => stored(c, i));
      blocks.push({
        key: calls.length ? (olderKeys.get(i) ?? callsKey(calls[0].id)) : `m${m.seq}`,
        kind: 'answer',
        reasoning: m.reasoning ?? '',
        text: m.text ?? '',
        streaming: false,
        calls,
        error: m.error ?? '',
        usage: m.usage ?? null,
        truncated,
      });
    } else if (truncated) {
      blocks.push({ key: `m${m.seq}`, kind: 'note', truncated });
    }
  });
  if (!live) return blocks;

  if (live.userText || live.attachments?.length) {
    const chips = (live.attachments ?? []).map((a) => ({ serverName: serverName(a.serverId), name: a.name, uri: a.uri, size: 0 }));
    blocks.push({ key: 'live-user', kind: 'user', text: live.userText, chips, truncated: '' });
  }
  live.rounds.forEach((r, i) => {
    if (!r.text && !r.reasoning && !r.calls.length) return; // nothing to draw yet
    const calls: CardCall[] = r.calls.map((c) => ({
      id: c.id,
      serverId: c.serverId,
      serverName: c.serverName || serverName(c.serverId),
      tool: c.tool,
      view: c.view,
      state: c.state,
      result: c.result,
      note: c.note,
      dropped: false,
      progress: c.progress ?? null,
      app: !!c.app,
      live: true,
    }));
    blocks.push({
      key: calls.length ? callsKey(calls[0].id) : `live-${i}`,
      kind: 'answer',
      reasoning: r.reasoning,
      text: r.text,
      streaming: i === live.rounds.length - 1,
      calls,
      error: '',
      usage: null,
      truncated: '',
    });
  });
  return blocks;
}
