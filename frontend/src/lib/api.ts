// The one door between the UI and Gatehouse's Go core. Every binding call and
// event subscription goes through here, so that components and stores stay
// free of Wails details, and component tests can replace this module with a
// mock (vi.mock('./api')).
//
// Go sends every list and map as [] or {}, never null (app/nonull_test.go
// checks it), so values are used as they arrive.

import * as Servers from '../../wailsjs/go/app/ServersService';
import * as Tools from '../../wailsjs/go/app/ToolsService';
import * as Settings from '../../wailsjs/go/app/SettingsService';
import * as Questions from '../../wailsjs/go/app/QuestionService';
import * as Chat from '../../wailsjs/go/app/ChatService';
import * as Providers from '../../wailsjs/go/app/ProvidersService';
import * as Policies from '../../wailsjs/go/app/PoliciesService';
import * as Theme from '../../wailsjs/go/app/ThemeService';
import * as Import from '../../wailsjs/go/app/ImportService';
import * as Resources from '../../wailsjs/go/app/ResourcesService';
import * as Prompts from '../../wailsjs/go/app/PromptsService';
import { EventsOn, Quit } from '../../wailsjs/runtime/runtime';
import type { app, forms, i18n, importcfg, linkcheck, llm, mcp, store } from '../../wailsjs/go/models';
import {
  EventChat,
  EventLanguage,
  EventLog,
  EventPolicies,
  EventProgress,
  EventPrompts,
  EventProviders,
  EventQuestions,
  EventResources,
  EventResourceUpdated,
  EventServers,
  EventTheme,
  EventTools,
} from './events';
import { isGoMessage, msg, t, type GoMessage } from './i18n.svelte';

// Plain data shapes of the Go types in app/types.go and of linkcheck.Report,
// which the app sends as it is. The generated classes in wailsjs/go/models.ts
// have constructors; the UI only needs the fields. A Go enum (a TypeScript
// enum in models.ts, such as store.ToolMode) arrives as its values' text.
type Data<T> = {
  [K in keyof T as T[K] extends Function ? never : K]: T[K] extends string ? `${T[K]}` : T[K];
};

export type ServerInput = Data<app.ServerInput>;
export type ServerView = Omit<Data<app.ServerView>, 'input' | 'status'> & {
  input: ServerInput;
  status: StatusView;
};
export type StatusView = Omit<Data<app.StatusView>, 'counts' | 'message'> & { counts: ListCount; message: Message };
export type ListCount = Data<app.ListCount>;
/** Per input field, what is wrong with it, in the window's language. */
export type FieldErrors = Record<string, string>;
/**
 * A sentence from Go (i18n.Message): a catalogue key, its arguments, and
 * its English text. Show `text`; never write such sentences here. Go adds
 * `text` when it sends a message, which the generated class cannot say, so
 * values holding messages are typed here and read from Go through unknown.
 */
export type Message = Data<i18n.Message> & { text: string };
/** Per field name ("" for the whole), what Go found wrong. */
export type MessageErrors = Record<string, Message>;
export type Option = Data<forms.Option>;
/** One input of a form Go built from a schema (forms.Field). */
export type Field = Omit<Data<forms.Field>, 'options' | 'hints'> & { options: Option[]; hints: Message[] };
/** A form Go built from a schema (forms.Form). */
export type Form = Omit<Data<forms.Form>, 'fields' | 'reason'> & { fields: Field[]; reason?: Message };
export type ToolHints = Data<app.ToolHints>;
/** A tool as the list shows it; its form and input schema come with toolForm when it is opened. */
export type ToolView = Omit<Data<app.ToolView>, 'annotations'> & {
  annotations: ToolHints;
};
/** An opened tool's form and its input schema (pretty JSON), for the version schemaId names. */
export type ToolFormView = Omit<Data<app.ToolFormView>, 'form'> & { form: Form };
/** A tool form's values read by Go: the arguments they make, and what is wrong. */
export type ArgumentCheck = { arguments: Record<string, unknown>; errors: MessageErrors };
export type ContentView = Omit<Data<app.ContentView>, 'link'> & { link?: LinkReport };
export type ToolResultView = Omit<Data<app.ToolResultView>, 'content' | 'structuredWarning' | 'argumentErrors' | 'structuredView'> & {
  content: ContentView[];
  /** structuredContent as Go prepared it for the window. */
  structuredView?: JsonNode;
  structuredWarning?: Message;
  /** Set when the arguments did not pass: then the tool was not called. */
  argumentErrors: MessageErrors;
};
/** A server's resources and templates (app.ResourceListView); every string in it is server text. */
export type ResourceListView = Omit<Data<app.ResourceListView>, 'resources' | 'templates'> & {
  resources: ResourceView[];
  templates: TemplateView[];
};
export type ResourceView = Data<app.ResourceView>;
/** A resource template; problem says why it cannot be filled (then variables is empty). */
export type TemplateView = Omit<Data<app.TemplateView>, 'problem'> & { problem?: Message };
/** One item of a read: kind text/json (a page of it), image (dataUrl) or binary (offered for saving). */
export type ResourceContentView = Omit<Data<app.ResourceContentView>, 'note' | 'kind'> & {
  kind: 'text' | 'json' | 'image' | 'binary';
  note?: Message;
};
/** One read of a resource, ready to show. */
export type ResourceReadView = Omit<Data<app.ResourceReadView>, 'contents'> & { contents: ResourceContentView[] };
/** What a server suggests for a template variable or a prompt argument; offered is false when it suggests nothing at all. */
export type CompletionView = Data<app.CompletionView>;
export type PromptArgumentView = Data<app.PromptArgumentView>;
export type PromptView = Omit<Data<app.PromptView>, 'arguments'> & { arguments: PromptArgumentView[] };
/** One message a prompt produces: who says it, and its content as a tool result's content is shown. */
export type PromptMessageView = { role: string; content: ContentView };
export type PromptResultView = { description: string; messages: PromptMessageView[] };
/** A subscribed resource that changed (app.ResourceUpdate). */
export type ResourceUpdate = { serverId: string; uri: string };
export type AppInfo = Data<app.AppInfo>;
/** The language setting: the person's choice ('' for the system's), Go's language now, and the system's as Go reads it. */
export type LanguageView = { choice: string; language: string; system: string };
export type SettingsView = Data<app.SettingsView>;
/** Settings → Theme, and the desktop's light/dark preference as Go read it ('' when it states none). */
export type ThemeView = { choice: 'system' | 'light' | 'dark'; system: '' | 'light' | 'dark' };
export type LinkWarning = { kind: string; message: Message };
export type LinkReport = Omit<Data<linkcheck.Report>, 'warnings'> & { warnings: LinkWarning[] };
/** Who asks a question (E27): the name the person gave the server first. */
export type ServerRef = Data<mcp.ServerRef>;
/** The question in the consent dialog: a form, a web page to open, or a sign-in. */
export type QuestionView = Omit<Data<app.QuestionView>, 'server' | 'form' | 'link' | 'toolCall' | 'sampling'> & {
  server: ServerRef;
  form?: Form;
  link?: LinkReport;
  toolCall?: ToolCallView;
  sampling?: SamplingView;
};
/** A piece of server or model text as Go split it (visible.Segment): plain text, or one hidden character's code ("U+202E"). */
export type TextSegment = { text?: string; code?: string };
/**
 * A JSON value as Go prepared it for the window (visible.Node): numbers as
 * written, strings and keys as segments with hidden characters marked. The
 * window draws it as it is and never reads the JSON itself.
 */
export type JsonNode = {
  kind: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' | 'text';
  key?: TextSegment[];
  text?: string;
  segments?: TextSegment[];
  children?: JsonNode[];
  open?: boolean;
  repeated?: boolean;
};
/** A tool call a model wants to make: its arguments are shown (view) as they will be sent. */
export type ToolCallView = Omit<Data<mcp.ToolCall>, 'view'> & { view: JsonNode };
/** A server's sampling request (and the model's answer), for the person to review. */
export type SamplingView = Omit<Data<mcp.Sampling>, 'messages' | 'models' | 'result'> & {
  messages: { role: string; text: string }[];
  models: { id: string; label: string }[];
  result?: { model: string; text: string; stopReason: string };
};
/** What the person changed in a sampling request before it runs. */
export type SamplingEdit = { model: string; systemPrompt: string; messages: { role: string; text: string }[] };
export type OpenedView = Omit<Data<app.OpenedView>, 'link'> & { link: LinkReport };
export type WaitingView = Data<mcp.Waiting>;
/** A notice about a server from the broker: a flood, a question that closed unanswered. */
export type BrokerNotice = Omit<Data<mcp.Notice>, 'message'> & { message: Message };
/** Everything pending for the person, as the broker published it (version increases). */
export type Snapshot = {
  version: number;
  current: QuestionView | null;
  waiting: WaitingView[];
  opened: OpenedView[];
  notices: BrokerNotice[];
};
/** One past question or tool run (app.HistoryView); answer, arguments and result only when remembered. */
export type HistoryView = Omit<Data<app.HistoryView>, 'fields' | 'titles' | 'answer' | 'arguments' | 'summary' | 'detail'> & {
  fields: string[];
  titles: Record<string, string>;
  answer?: Record<string, unknown>;
  arguments?: Record<string, unknown>;
  /** What Gatehouse asked in its own words (a sign-in, a sampling request); absent where the server worded it (message). */
  summary?: Message;
  /** Why it ended so, when there is a reason; an older entry's is its English text. */
  detail?: Message;
};
/** A page of the history, newest first; more when older entries match (app.HistoryPage). */
export type HistoryPage = { entries: HistoryView[]; more: boolean };
/** One tool's permission (app.ToolPolicyView): its own mode, and what a call of it does now. */
export type ToolPolicyView = Omit<Data<app.ToolPolicyView>, 'hints' | 'why'> & { hints: ToolHints; why: Message };
/** One server's tool permissions and how its requests are answered (app.ServerPolicyView). */
export type ServerPolicyView = Omit<Data<app.ServerPolicyView>, 'tools'> & { tools: ToolPolicyView[] };
/** A tool the person allowed in one conversation (app.ConversationGrant); held when it changed since. */
export type ConversationGrant = Data<app.ConversationGrant>;
/** A tool-call mode (store.ToolMode): ask, allow, deny, or for one tool 'default' (its server's applies). */
export type ToolMode = `${store.ToolMode}`;
/** What a server's tool calls do: ask each time, allow or deny without asking. */
export type ToolCallMode = Exclude<ToolMode, `${store.ToolMode.DEFAULT}`>;
export type SubmitResult = { sent: boolean; errors: MessageErrors };
/** An answer's values, typed as the schema wants them (numbers, booleans, lists). */
export type AnswerValues = Record<string, unknown>;
/** Per-provider settings for known vendor differences; a preset's always apply. */
export type Quirks = Data<llm.Quirks>;
/** A provider Gatehouse knows (Ollama, DeepSeek, ...), offered when adding one; local ones come first. */
export type PresetView = Omit<Data<app.PresetView>, 'quirks'> & { quirks: Quirks };
/** What the provider editor sends: an empty apiKey keeps the saved key, clearKey removes it. */
export type ProviderInput = Omit<Data<app.ProviderInput>, 'quirks'> & { quirks: Quirks };
export type ModelView = Data<app.ModelView>;
/** What "Test" found: the endpoint's models, or a sentence saying why it could not list them. */
export type ProviderTest = { models: ModelView[]; problem?: Message };

/** A conversation with a model (store.Conversation); times arrive as RFC 3339 text. */
export type Conversation = Omit<Data<store.Conversation>, 'createdAt' | 'updatedAt' | 'allowedTools'> & {
  createdAt: string;
  updatedAt: string;
};
/**
 * A tool call a model asked for, as stored (store.ToolCall). Its arguments
 * arrive as the JSON value itself (normally an object; a string when the
 * store had to cut them).
 */
export type StoredToolCall = Omit<Data<store.ToolCall>, 'arguments' | 'view'> & { arguments?: unknown; view?: JsonNode };
/** What became of a tool call: content is the JSON value (for the chat, the text the model received). */
export type StoredToolResult = Omit<Data<store.ToolResult>, 'content'> & { content?: unknown };
/** One stored message of a conversation (store.Message): role user, assistant or tool. */
export type ChatMessage = Omit<
  Data<store.Message>,
  'providerData' | 'toolCalls' | 'toolResult' | 'usage' | 'createdAt' | 'attachments'
> & {
  toolCalls?: StoredToolCall[];
  attachments?: StoredAttachment[];
  toolResult?: StoredToolResult;
  usage?: Data<store.Usage>;
  createdAt: string;
};
/** A tool call's card while a turn runs (chat.Call); state is asking, running, waiting, done, failed or denied. */
export type ChatCall = {
  id: string;
  serverId: string;
  serverName: string;
  tool: string;
  arguments: unknown;
  /** The arguments as Go prepared them for the window (absent when they were not JSON). */
  view?: JsonNode;
  state: string;
  result: string;
  /** Why a call did not run or how it was allowed; key '' and no text when there is nothing to say. */
  note: Message;
  /** How far a running call got, as its server said. */
  progress?: Progress;
};
/** A progress notification of a running call (mcp.Progress): total 0 when the server does not know how much there is; message is server text. */
export type Progress = { progress: number; total: number; message: string };
/** How far a running call of the Tools pane got (app.ToolProgress). */
export type ToolProgress = Progress & { callId: string };
/** One line of a server's log (mcp.LogLine): source 'stderr', 'gatehouse' or 'server' (a log message, with its level and logger). */
export type LogLine = Data<mcp.LogLine>;
/** MCP's log levels, least severe first. */
export const logLevels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
/** One event of a running turn (app.ChatEvent). */
export type ChatEvent = {
  conversationId: string;
  kind: 'text' | 'reasoning' | 'call' | 'usage' | 'round' | 'done' | 'failed';
  text?: string;
  call?: ChatCall;
  usage?: { inputTokens: number; outputTokens: number };
  error?: string;
  contextTooLong?: boolean;
};
/**
 * A model provider the person set up (app.ProviderView). It never carries the
 * API key, only a masked keyHint. Its quirks are the preset's and the
 * person's (images) together; the editor shows the images one.
 */
export type ProviderView = Omit<Data<app.ProviderView>, 'quirks'> & { quirks: Quirks };

/** A file of another app's MCP servers found on this computer (app.ImportLocation). */
export type ImportLocation = Data<app.ImportLocation>;
/**
 * One sentence about a file or a server of it to import: a warning to read before importing (the file is a
 * project's, the command runs code written into it or downloaded, a variable changes how programs run),
 * skipped (not imported), left-out (part of it) or changed.
 */
export type ImportNote = { kind: 'warning' | 'skipped' | 'left-out' | 'changed'; message: Message };
/**
 * One server of a file as it would be imported (importcfg.Entry): commandLine is the command exactly as it
 * will run, quoted by Go as a shell would; values of env and headers come masked, but for the variables that
 * change how programs run (runtime).
 */
export type ImportEntry = Omit<Data<importcfg.Entry>, 'env' | 'headers' | 'notes'> & {
  env: Data<importcfg.Setting>[];
  headers: Data<importcfg.Setting>[];
  notes: ImportNote[];
};
/** What importing a file would do (importcfg.Preview); nothing is written until importServers. */
export type ImportPreview = Omit<Data<importcfg.Preview>, 'formatNote' | 'notes' | 'servers'> & {
  formatNote: Message;
  notes: ImportNote[];
  servers: ImportEntry[];
};
/** The entries of a preview the person confirmed, by key, with the names they chose. */
export type ImportRequest = Data<app.ImportRequest>;
/** What an import added, and each server it could not add with the reason. */
export type ImportResult = { added: ServerView[]; failed: { key: string; name: string; message: Message }[] };

/**
 * A failed call to Go. Go sends its own sentences as messages (key, args),
 * which render in the window's language when shown; other errors are text.
 */
export class GoError extends Error {
  constructor(
    /** The sentence, when Go sent one of the catalogue's. */
    readonly goMessage: GoMessage | null,
    text: string,
  ) {
    super(text);
  }
  /** Whether Go said the sentence with this key. */
  is(key: string): boolean {
    return this.goMessage?.key === key;
  }
}

/**
 * The sentence Go sent with a failed call, if it sent one: Wails rejects
 * with new Error(text), and Go writes its sentences there as the JSON of
 * the message (app.windowError).
 */
function goMessageOf(e: unknown): GoMessage | null {
  if (isGoMessage(e)) return e;
  const text = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
  if (!text.startsWith('{"key":')) return null;
  try {
    const m: unknown = JSON.parse(text);
    return isGoMessage(m) ? m : null;
  } catch {
    return null;
  }
}

/** A sentence for people, in the window's language, from whatever a failed call rejected with. */
export function errorText(e: unknown): string {
  const fromGo = e instanceof GoError ? null : goMessageOf(e);
  if (fromGo) return msg(fromGo);
  if (e instanceof GoError && e.goMessage) return msg(e.goMessage);
  if (typeof e === 'string') return e;
  if (isGoMessage(e)) return msg(e);
  if (e instanceof Error) return e.message;
  if (e && typeof e === 'object' && 'message' in e) return String((e as { message: unknown }).message);
  return String(e);
}

function backend(): void {
  const w = window as unknown as { go?: unknown };
  if (!w.go) throw new GoError(null, t('app.noCore'));
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  backend();
  try {
    return await fn();
  } catch (e) {
    if (e instanceof GoError) throw e;
    throw new GoError(goMessageOf(e), errorText(e));
  }
}

// --- Servers pane -----------------------------------------------------------

export async function listServers(): Promise<ServerView[]> {
  return (await call(() => Servers.List())) as unknown as ServerView[];
}

/** Go's field errors ({key, args, text} each) as sentences in the window's language. */
function fieldErrors(errs: unknown): FieldErrors {
  return Object.fromEntries(Object.entries((errs ?? {}) as Record<string, Message>).map(([k, m]) => [k, msg(m)]));
}

/** Field errors for an editor's input; an empty object means valid. */
export async function validateServer(id: string, input: ServerInput): Promise<FieldErrors> {
  return fieldErrors(await call(() => Servers.Validate(id, input as app.ServerInput)));
}

export async function addServer(input: ServerInput): Promise<ServerView> {
  return (await call(() => Servers.Add(input as app.ServerInput))) as unknown as ServerView;
}

export async function updateServer(id: string, input: ServerInput): Promise<ServerView> {
  return (await call(() => Servers.Update(id, input as app.ServerInput))) as unknown as ServerView;
}

export function removeServer(id: string): Promise<void> {
  return call(() => Servers.Remove(id));
}

export function setServerEnabled(id: string, enabled: boolean): Promise<void> {
  return call(() => Servers.SetEnabled(id, enabled));
}

/** Starts signing in to a server that needs it: Go shows the sign-in consent. */
export function signIn(id: string): Promise<void> {
  return call(() => Servers.SignIn(id));
}

/** Deletes a server's sign-in tokens. */
export function signOut(id: string): Promise<void> {
  return call(() => Servers.SignOut(id));
}

export function reconnectServer(id: string): Promise<void> {
  return call(() => Servers.Reconnect(id));
}

export async function serverLog(id: string): Promise<string> {
  return (await call(() => Servers.Log(id))) ?? '';
}

/** A server's log line by line, with where each came from and a log message's level. */
export async function serverLogLines(id: string): Promise<LogLine[]> {
  return (await call(() => Servers.LogLines(id))) as LogLine[];
}

/** Sets the level of log messages asked of a server (logging/setLevel); '' for the server's own default. */
export async function setLogLevel(id: string, level: string): Promise<ServerView> {
  return (await call(() => Servers.SetLogLevel(id, level))) as unknown as ServerView;
}

/** Asks the person for a folder with the system's folder dialog; its path, or '' when they cancelled. */
export function chooseFolder(): Promise<string> {
  return call(() => Servers.ChooseFolder());
}

// --- Import (Servers pane) -----------------------------------------------------

/** The files of other apps' MCP servers at the places those apps keep them on this computer. */
export async function importLocations(): Promise<ImportLocation[]> {
  return (await call(() => Import.Locations())) as ImportLocation[];
}

/** Asks the person for a file with the system's open dialog; "" when they cancelled. */
export function chooseImportFile(): Promise<string> {
  return call(() => Import.ChooseFile());
}

/** Reads a file of another app's servers and says what importing it would do; nothing is written. */
export async function previewImport(path: string): Promise<ImportPreview> {
  return (await call(() => Servers.PreviewImport(path))) as unknown as ImportPreview;
}

/** Imports the chosen servers of a previewed file; Go refuses, importing nothing, when the file changed since. */
export async function importServers(req: ImportRequest): Promise<ImportResult> {
  return (await call(() => Servers.Import(req as app.ImportRequest))) as unknown as ImportResult;
}

/** What is wrong with a name for a new server, in the window's language; "" when it is fine. */
export async function checkImportName(name: string): Promise<string> {
  const m = (await call(() => Import.CheckName(name))) as unknown as Message;
  return m.key ? msg(m) : '';
}

// --- Tools pane ---------------------------------------------------------------

export async function listTools(serverID: string): Promise<ToolView[]> {
  return (await call(() => Tools.List(serverID))) as unknown as ToolView[];
}

/** The form Go made from a tool's input schema, for the tool the person opened, with the schema. */
export async function toolForm(serverID: string, tool: string): Promise<ToolFormView> {
  return (await call(() => Tools.Form(serverID, tool))) as unknown as ToolFormView;
}

/** Reads a tool form's values as a call would send them, without calling. */
export async function checkArguments(serverID: string, tool: string, values: AnswerValues): Promise<ArgumentCheck> {
  return (await call(() => Tools.Check(serverID, tool, values))) as unknown as ArgumentCheck;
}

/** Calls a tool with JSON arguments; Go checks them first and sends nothing when they do not pass. */
export async function callTool(
  callID: string,
  serverID: string,
  tool: string,
  argsJSON: string,
): Promise<ToolResultView> {
  return (await call(() => Tools.Call(callID, serverID, tool, argsJSON))) as unknown as ToolResultView;
}

/** Opens a resource link of a tool result, by the ID Go gave it, after the person's consent (E31). */
export function openResultLink(linkID: string): Promise<void> {
  return call(() => Tools.OpenLink(linkID));
}

export function cancelCall(callID: string): Promise<void> {
  return call(() => Tools.Cancel(callID));
}

// --- Resources and prompts (Tools pane) ---------------------------------------

/** A connected server's resources and templates, listed now. */
export async function listResources(serverID: string): Promise<ResourceListView> {
  return (await call(() => Resources.List(serverID))) as unknown as ResourceListView;
}

/** Reads a resource on a server (listed, made from a template, or a link in its result); text comes as its first page. */
export async function readResource(serverID: string, uri: string): Promise<ResourceReadView> {
  return (await call(() => Resources.Read(serverID, uri))) as unknown as ResourceReadView;
}

/** The page of a read item's text that starts at offset (a nextOffset Go gave). */
export async function resourcePage(serverID: string, uri: string, index: number, offset: number): Promise<ResourceContentView> {
  return (await call(() => Resources.Page(serverID, uri, index, offset))) as unknown as ResourceContentView;
}

/** Asks where to save a read item and writes it there; the path, or "" when the person cancelled. */
export function saveResource(serverID: string, uri: string, index: number): Promise<string> {
  return call(() => Resources.Save(serverID, uri, index));
}

/** Fills a template's variables: the URI to read, or a sentence saying what is wrong. */
export function expandTemplate(uriTemplate: string, values: Record<string, string>): Promise<string> {
  return call(() => Resources.Expand(uriTemplate, values));
}

/** The server's suggestions for a template variable that start like value. */
export async function completeTemplate(
  serverID: string,
  uriTemplate: string,
  variable: string,
  value: string,
  filled: Record<string, string>,
): Promise<CompletionView> {
  return call(() => Resources.Complete(serverID, uriTemplate, variable, value, filled));
}

/** Asks the server to say when a resource changes (onResourceUpdated). */
export function subscribeResource(serverID: string, uri: string): Promise<void> {
  return call(() => Resources.Subscribe(serverID, uri));
}

export function unsubscribeResource(serverID: string, uri: string): Promise<void> {
  return call(() => Resources.Unsubscribe(serverID, uri));
}

/** A connected server's prompts with their arguments. */
export async function listPrompts(serverID: string): Promise<PromptView[]> {
  return (await call(() => Prompts.List(serverID))) as unknown as PromptView[];
}

/** The messages a prompt produces with args; a missing required argument is named before anything is sent. */
export async function getPrompt(serverID: string, name: string, args: Record<string, string>): Promise<PromptResultView> {
  return (await call(() => Prompts.Get(serverID, name, args))) as unknown as PromptResultView;
}

/** The server's suggestions for a prompt argument that start like value. */
export async function completePrompt(
  serverID: string,
  prompt: string,
  argument: string,
  value: string,
  filled: Record<string, string>,
): Promise<CompletionView> {
  return call(() => Prompts.Complete(serverID, prompt, argument, value, filled));
}

// --- Settings pane ------------------------------------------------------------

export async function appInfo(): Promise<AppInfo> {
  return call(() => Settings.Info());
}

export async function getSettings(): Promise<SettingsView> {
  return call(() => Settings.Get());
}

export function saveSettings(v: SettingsView): Promise<void> {
  return call(() => Settings.Save(v as app.SettingsView));
}

/** The language setting. */
export async function getLanguage(): Promise<LanguageView> {
  return (await call(() => Settings.Language())) as LanguageView;
}

/** Stores the language choice ('' for the system's, 'en', 'zh-CN'); Go renders its sentences in it from now on. */
export async function setLanguage(choice: string): Promise<LanguageView> {
  return (await call(() => Settings.SetLanguage(choice))) as LanguageView;
}

/** Whether the person dismissed the first-start welcome (it then never shows again). */
export function welcomeDismissed(): Promise<boolean> {
  return call(() => Settings.WelcomeDismissed());
}

/** Stores that the person dismissed the first-start welcome. */
export function dismissWelcome(): Promise<void> {
  return call(() => Settings.DismissWelcome());
}

// --- Theme (Settings → Theme) ------------------------------------------------

export async function getTheme(): Promise<ThemeView> {
  return (await call(() => Theme.Get())) as ThemeView;
}

/** Saves Settings → Theme; Go shows it at once and sends it to every window. */
export async function setTheme(choice: ThemeView['choice']): Promise<ThemeView> {
  return (await call(() => Theme.Set(choice))) as ThemeView;
}

// --- Model providers (Settings → Models) --------------------------------------

/** The providers Gatehouse knows, local servers first. */
export async function providerPresets(): Promise<PresetView[]> {
  return (await call(() => Providers.Presets())) as PresetView[];
}

/** Field errors for the provider editor's input; id is "" when adding. An empty object means valid. */
export async function validateProvider(id: string, input: ProviderInput): Promise<FieldErrors> {
  return fieldErrors(await call(() => Providers.Validate(id, input as app.ProviderInput)));
}

export async function addProvider(input: ProviderInput): Promise<ProviderView> {
  return (await call(() => Providers.Add(input as app.ProviderInput))) as ProviderView;
}

export async function updateProvider(id: string, input: ProviderInput): Promise<ProviderView> {
  return (await call(() => Providers.Update(id, input as app.ProviderInput))) as ProviderView;
}

/** Deletes a provider and its saved API key. */
export function removeProvider(id: string): Promise<void> {
  return call(() => Providers.Remove(id));
}

/** Makes a provider the one new conversations start with. */
export function setDefaultProvider(id: string): Promise<void> {
  return call(() => Providers.SetDefault(id));
}

/**
 * Lists the models the endpoint in the editor offers, without saving; id is
 * the provider being edited ("" when adding), whose saved key is used when
 * the input has none. A failure to reach the endpoint is a problem, not an error.
 */
export async function testProvider(id: string, input: ProviderInput): Promise<ProviderTest> {
  return (await call(() => Providers.Test(id, input as app.ProviderInput))) as unknown as ProviderTest;
}

// --- Tool permissions (Settings) ------------------------------------------------

/** Every server's tool permissions, with the tools it offers now when connected. */
export async function listPolicies(): Promise<ServerPolicyView[]> {
  return (await call(() => Policies.List())) as unknown as ServerPolicyView[];
}

/** Sets what a call of any of the server's tools does (a tool's own mode wins). */
export async function setToolCallMode(serverID: string, mode: ToolCallMode): Promise<void> {
  await call(() => Policies.SetMode(serverID, mode));
}

/** Trusts the server's read-only claims, or stops trusting them. */
export async function setTrusted(serverID: string, trusted: boolean): Promise<void> {
  await call(() => Policies.SetTrusted(serverID, trusted));
}

/** Sets one tool's own mode; 'default' removes it, so the server's applies. */
export async function setToolMode(serverID: string, tool: string, mode: ToolMode): Promise<void> {
  await call(() => Policies.SetToolMode(serverID, tool, mode));
}

/** How the server's questions and sampling requests are answered: shown to the person, or declined unseen. */
export async function setRequestPolicy(serverID: string, mode: 'ask' | 'decline'): Promise<void> {
  await call(() => Policies.SetRequests(serverID, mode));
}

/** Puts the server back to the defaults: everything asked, no claim trusted. */
export async function resetPolicies(serverID: string): Promise<void> {
  await call(() => Policies.Reset(serverID));
}

/** The tools allowed in a conversation, in the order they were allowed. */
export async function conversationGrants(conversationID: string): Promise<ConversationGrant[]> {
  return (await call(() => Policies.ConversationGrants(conversationID))) as unknown as ConversationGrant[];
}

/** Ends one tool's allowance in a conversation (refused while a turn runs there); returns those left. */
export async function revokeConversationGrant(conversationID: string, serverID: string, tool: string): Promise<ConversationGrant[]> {
  return (await call(() => Policies.RevokeConversationGrant(conversationID, serverID, tool))) as unknown as ConversationGrant[];
}

// --- Questions (consent dialog, queue, opened pages) ---------------------------

/** The broker's snapshot now; a (re)loaded page asks once, then follows onQuestions. */
export async function questionsSnapshot(): Promise<Snapshot> {
  return (await call(() => Questions.Snapshot())) as unknown as Snapshot;
}

/** Consent to a web page question: Go opens the URL it checked in the system browser, then answers accept (E21). */
export function openPage(id: string): Promise<void> {
  return call(() => Questions.Open(id));
}

export function openAgain(id: string): Promise<void> {
  return call(() => Questions.OpenAgain(id));
}

/** "I've finished": a call waiting for the page goes on. */
export function finishedPage(id: string): Promise<void> {
  return call(() => Questions.Finished(id));
}

/** Stop waiting for a page; a call waiting for it fails. */
export function stopWaiting(id: string): Promise<void> {
  return call(() => Questions.StopWaiting(id));
}

/** Errors per field for an answer, without sending it (E15). */
export async function validateAnswer(id: string, values: AnswerValues): Promise<MessageErrors> {
  return (await call(() => Questions.Validate(id, values))) as unknown as MessageErrors;
}

/** Sends the answer if Go finds it valid; otherwise nothing is sent and the errors come back. */
export async function submitAnswer(id: string, values: AnswerValues): Promise<SubmitResult> {
  return (await call(() => Questions.Submit(id, values))) as unknown as SubmitResult;
}

/** Allows the tool call on screen: once, for the rest of the conversation, or always. */
export function allowToolCall(id: string, scope: 'once' | 'conversation' | 'always'): Promise<void> {
  return call(() => Questions.Allow(id, scope));
}

/** Sends a sampling request to the person's model, with their edits. */
export function reviewSampling(id: string, edit: SamplingEdit): Promise<void> {
  return call(() => Questions.ReviewSampling(id, edit as mcp.SamplingEdit));
}

/** Sends the model's answer to the server that asked for it. */
export function acceptModelAnswer(id: string): Promise<void> {
  return call(() => Questions.Accept(id));
}

export function declineQuestion(id: string): Promise<void> {
  return call(() => Questions.Decline(id));
}

export function cancelQuestion(id: string): Promise<void> {
  return call(() => Questions.Cancel(id));
}

/** Declines or cancels a question that waits in the queue (E28). */
export function refuseQuestion(id: string, action: 'decline' | 'cancel'): Promise<void> {
  return call(() => Questions.Refuse(id, action));
}

/** Removes a broker notice the person has read. */
export function dismissNotice(id: string): Promise<void> {
  return call(() => Questions.DismissNotice(id));
}

export function muteServer(serverID: string, minutes: number): Promise<void> {
  return call(() => Questions.Mute(serverID, minutes));
}

/** A page of the history, older than the entry with ID before (0: the newest). */
export async function history(serverID: string, outcome: string, before = 0): Promise<HistoryPage> {
  return (await call(() => Questions.History(serverID, outcome, before))) as HistoryPage;
}

export function clearHistory(): Promise<void> {
  return call(() => Questions.ClearHistory());
}

/** Asks Go for an OS notification and the window's attention (the window is not focused). */
export function notifyUnfocused(id: string): Promise<void> {
  return call(() => Questions.NotifyUnfocused(id));
}

// --- Chat pane ----------------------------------------------------------------

/** Conversations, the most recently active first; a query finds those whose title or messages contain it. */
export async function listConversations(query: string): Promise<Conversation[]> {
  return (await call(() => Chat.Conversations(query))) as unknown as Conversation[];
}

/** Starts a conversation with a provider ("" for the default), a model ("" for the provider's), and servers (none: every enabled one). */
export async function newConversation(
  providerID: string,
  model: string,
  systemPrompt: string,
  serverIDs: string[],
): Promise<Conversation> {
  return (await call(() => Chat.NewConversation(providerID, model, systemPrompt, serverIDs))) as unknown as Conversation;
}

/** A conversation's stored messages, oldest first. */
export async function conversationMessages(id: string): Promise<ChatMessage[]> {
  return (await call(() => Chat.Messages(id))) as unknown as ChatMessage[];
}

export function renameConversation(id: string, title: string): Promise<void> {
  return call(() => Chat.Rename(id, title));
}

/** Stops a conversation's turn and deletes it with its messages. */
export function deleteConversation(id: string): Promise<void> {
  return call(() => Chat.Delete(id));
}

/** Sends the person's message; the model's turn follows as chat events, ending with done or failed. */
export function sendMessage(id: string, text: string): Promise<void> {
  return call(() => Chat.Send(id, text));
}

/** Cancels one running tool call of a conversation from its card; the model reads that the person cancelled it. */
export function cancelChatCall(conversationID: string, callID: string): Promise<void> {
  return call(() => Chat.CancelCall(conversationID, callID));
}

/** Stops a conversation's running turn: the stream, a question on screen, a running tool call. */
export function stopTurn(id: string): Promise<void> {
  return call(() => Chat.Stop(id));
}

/**
 * Changes a conversation's provider, model ("" for the provider's), system
 * prompt and servers (none: every enabled one) for its next turns. Go
 * refuses while a turn runs, and for a provider or server that does not exist.
 */
export async function updateConversation(
  id: string,
  providerID: string,
  model: string,
  systemPrompt: string,
  serverIDs: string[],
): Promise<Conversation> {
  return (await call(() => Chat.UpdateConversation(id, providerID, model, systemPrompt, serverIDs))) as unknown as Conversation;
}

/** Marks the tool results before the person's last message dropped; returns how many. The model gets a placeholder for each. */
export function dropOldToolResults(id: string): Promise<number> {
  return call(() => Chat.DropOldToolResults(id));
}

/** Answers the person's last message again after a failed turn; events follow as for sendMessage. */
export function retryTurn(id: string): Promise<void> {
  return call(() => Chat.Retry(id));
}

/** Asks where to save the conversation as Markdown and writes it; the path, or "" when the person cancelled. */
export function exportConversation(id: string): Promise<string> {
  return call(() => Chat.Export(id));
}

/** Lists the models a saved provider's endpoint offers, or a sentence saying why it could not. */
export async function providerModels(id: string): Promise<ProviderTest> {
  return (await call(() => Providers.TestSaved(id))) as unknown as ProviderTest;
}

/** The model providers the person set up. */
export async function listProviders(): Promise<ProviderView[]> {
  return (await call(() => Providers.List())) as ProviderView[];
}

// --- Events -------------------------------------------------------------------

type Unsubscribe = () => void;

function on(name: string, cb: (...data: unknown[]) => void): Unsubscribe {
  const w = window as unknown as { runtime?: unknown };
  if (!w.runtime) return () => {};
  return EventsOn(name, cb);
}

/** Calls cb with every server and its status whenever any server changes. */
export function onServersChanged(cb: (servers: ServerView[]) => void): Unsubscribe {
  return on(EventServers, (list) => cb(list as ServerView[]));
}

/** Calls cb with a server's ID whenever that server's tool list changed. */
export function onToolsChanged(cb: (serverID: string) => void): Unsubscribe {
  return on(EventTools, (id) => cb(String(id)));
}

/** Calls cb with how far a running call of the Tools pane got. */
export function onProgress(cb: (p: ToolProgress) => void): Unsubscribe {
  return on(EventProgress, (p) => cb(p as ToolProgress));
}

/** Calls cb with a server's ID whenever its log gained lines (at most every 250 ms). */
export function onLogChanged(cb: (serverID: string) => void): Unsubscribe {
  return on(EventLog, (id) => cb(String(id)));
}

/** Calls cb with a server's ID whenever its resources may have changed. */
export function onResourcesChanged(cb: (serverID: string) => void): Unsubscribe {
  return on(EventResources, (id) => cb(String(id)));
}

/** Calls cb with a server's ID whenever its prompts may have changed. */
export function onPromptsChanged(cb: (serverID: string) => void): Unsubscribe {
  return on(EventPrompts, (id) => cb(String(id)));
}

/** Calls cb when a resource the person subscribed to changed. */
export function onResourceUpdated(cb: (u: ResourceUpdate) => void): Unsubscribe {
  return on(EventResourceUpdated, (u) => cb(u as ResourceUpdate));
}

/** Calls cb with every snapshot of the broker's questions Go publishes. */
export function onQuestions(cb: (s: Snapshot) => void): Unsubscribe {
  return on(EventQuestions, (s) => cb(s as Snapshot));
}

/** A web address of the model's text, checked by Go for the consent display, with the ID it opens under. */
export type CheckedLink = { id: string; link: LinkReport };

/** Checks an address the model wrote in a conversation for the consent display; refused with a sentence otherwise. */
export async function checkChatLink(conversationID: string, url: string): Promise<CheckedLink> {
  return (await call(() => Chat.CheckLink(conversationID, url))) as unknown as CheckedLink;
}

/** Opens a checked address of the model's text, by its ID, after the person's consent (E21). */
export function openChatLink(linkID: string): Promise<void> {
  return call(() => Chat.OpenLink(linkID));
}

/** Calls cb with every event of every running chat turn. */
export function onChat(cb: (ev: ChatEvent) => void): Unsubscribe {
  return on(EventChat, (ev) => cb(ev as ChatEvent));
}

/** Calls cb with the language setting whenever the person changes it. */
export function onLanguage(cb: (v: LanguageView) => void): Unsubscribe {
  return on(EventLanguage, (v) => cb(v as LanguageView));
}

/** Calls cb whenever the providers change (read them again with listProviders). */
export function onProvidersChanged(cb: () => void): Unsubscribe {
  return on(EventProviders, () => cb());
}

/** Calls cb with a server's ID whenever its tool permissions or request policy change, also from the consent dialog. */
export function onPoliciesChanged(cb: (serverID: string) => void): Unsubscribe {
  return on(EventPolicies, (v) => cb(String((v as { serverId?: unknown } | null)?.serverId ?? '')));
}

/** Calls cb whenever Settings → Theme or the desktop's light/dark preference changes. */
export function onThemeChanged(cb: (v: ThemeView) => void): Unsubscribe {
  return on(EventTheme, (v) => cb(v as ThemeView));
}

/** Quits Gatehouse (Ctrl+Q), as closing its window does: Go saves the window's size and closes every server. */
export function quitApp(): void {
  if ((window as unknown as { runtime?: unknown }).runtime) Quit();
}

/** A fresh ID for a tool call, so that it can be cancelled. */
export function newCallID(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `call-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

// --- The chat's prompts and attachments (issue 14): a prompt inserted from
// the composer's / menu (listPrompts, getPrompt, completePrompt above),
// resources attached to a message.

/**
 * A resource the person attaches to a message (chat.AttachmentRequest): read
 * on its server when the message is sent, or, with text or image (base64),
 * the contents a prompt gave.
 */
export type AttachmentRequest = { serverId: string; uri: string; name: string; mimeType?: string; text?: string; image?: string };
/** An attachment as stored with a message; its image arrives as base64. */
export type StoredAttachment = Omit<Data<store.Attachment>, 'image'> & { image?: string };

/** Sends the person's message with resources attached; events follow as for sendMessage. */
export function sendWithAttachments(id: string, text: string, attachments: AttachmentRequest[]): Promise<void> {
  return call(() => Chat.SendWithAttachments(id, text, attachments as never));
}
