// The chat's prompts and attachments (issue 14), without the window: which
// servers to ask, how the / menu filters, and what a prompt's messages
// become in the composer.
//
// A prompt is inserted as the person's turn, for them to read and edit
// before they send it (as VS Code does): the text of its messages goes into
// the composer, an assistant message's text under a line saying the prompt
// wrote it as the model's words, and its embedded resources, resource links
// and images become attachments. Nothing goes to the model until the person
// sends.

import { t } from './i18n.svelte';
import * as api from './api';
import type { AttachmentRequest, PromptResultView, PromptView, ServerView } from './api';

/** One prompt of one server, as the / menu lists it. */
export interface PromptChoice {
  serverId: string;
  serverName: string;
  prompt: PromptView;
}

/** An attachment in the composer: what goes to Go, and what its chip shows. */
export interface ComposerAttachment {
  request: AttachmentRequest;
  serverName: string;
  /** Bytes, as the server said or as the prompt gave it; 0 when unknown. */
  size: number;
}

/** The connected servers that offer a capability ("prompts", "resources"). */
export function serversOffering(list: ServerView[], capability: string): ServerView[] {
  return list.filter((s) => s.status.state === 'connected' && (s.status.capabilities ?? []).includes(capability));
}

/** A server's prompts as choices; a server whose list fails offers none. */
export async function serverPrompts(s: ServerView): Promise<PromptChoice[]> {
  try {
    return (await api.listPrompts(s.id)).map((prompt) => ({ serverId: s.id, serverName: s.input.name, prompt }));
  } catch {
    return [];
  }
}

/** The prompts whose name, title, description or server contain every word of the query. */
export function filterPrompts(choices: PromptChoice[], query: string): PromptChoice[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return choices.filter((c) => {
    const hay = `${c.prompt.name} ${c.prompt.title} ${c.prompt.description} ${c.serverName}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/** A blob embedded in a prompt reaches the window as this sentence (app.contentView); it is read on send instead. */
const blobText = /^\(\d+ bytes of binary data\)$/;

/** What a prompt's messages become: the composer's text, attachments, and what could not be carried. */
export function promptToComposer(
  result: PromptResultView,
  serverId: string,
  serverName: string,
): { text: string; attachments: ComposerAttachment[]; left: string[] } {
  const texts: string[] = [];
  const attachments: ComposerAttachment[] = [];
  const left: string[] = [];
  for (const m of result.messages) {
    const c = m.content;
    switch (c.type) {
      case 'text':
        texts.push(m.role === 'assistant' ? `${t('chatprompts.assistantSaid')}\n${c.text}` : c.text);
        break;
      case 'resource': {
        const inline = !blobText.test(c.text);
        attachments.push({
          request: { serverId, uri: c.uri, name: c.title || c.name || c.uri, mimeType: c.mimeType, text: inline ? c.text : undefined },
          serverName,
          size: inline ? new TextEncoder().encode(c.text).length : 0,
        });
        break;
      }
      case 'resource_link':
        attachments.push({ request: { serverId, uri: c.uri, name: c.title || c.name || c.uri, mimeType: c.mimeType }, serverName, size: 0 });
        break;
      case 'image':
        attachments.push({
          request: { serverId, uri: '', name: t('chatprompts.promptImage'), mimeType: c.mimeType, image: c.data },
          serverName,
          size: Math.floor((c.data.length * 3) / 4),
        });
        break;
      default:
        left.push(c.type);
    }
  }
  return { text: texts.join('\n\n'), attachments, left };
}

/** A size in bytes, as a chip shows it. */
export function sizeText(bytes: number): string {
  if (bytes <= 0) return '';
  if (bytes < 1024) return t('chatprompts.bytes', { n: bytes });
  if (bytes < 1024 * 1024) return t('chatprompts.kib', { n: Math.round(bytes / 102.4) / 10 });
  return t('chatprompts.mib', { n: Math.round(bytes / 104857.6) / 10 });
}
