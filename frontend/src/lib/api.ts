// The one door between the UI and Gatehouse's Go core. Every binding call and
// event subscription goes through here, so that components and stores stay
// free of Wails details, and component tests can replace this module with a
// mock (vi.mock('./api')).
//
// The shapes are Go's, as Wails generates them (wailsjs/go/models.ts), seen
// through Plain. Go sends every list and map as [] or {}, never null
// (app/nonull_test.go checks it), so values are used as they arrive.

import * as ServersGo from '../../wailsjs/go/app/ServersService';
import * as ToolsGo from '../../wailsjs/go/app/ToolsService';
import * as SettingsGo from '../../wailsjs/go/app/SettingsService';
import * as QuestionsGo from '../../wailsjs/go/app/QuestionService';
import * as ChatGo from '../../wailsjs/go/app/ChatService';
import * as ProvidersGo from '../../wailsjs/go/app/ProvidersService';
import * as PoliciesGo from '../../wailsjs/go/app/PoliciesService';
import * as ThemeGo from '../../wailsjs/go/app/ThemeService';
import * as ImportGo from '../../wailsjs/go/app/ImportService';
import * as ResourcesGo from '../../wailsjs/go/app/ResourcesService';
import * as PromptsGo from '../../wailsjs/go/app/PromptsService';
import * as AppsGo from '../../wailsjs/go/app/AppsService';
import * as ClientAppsGo from '../../wailsjs/go/app/ClientAppsService';
import * as ConnectGo from '../../wailsjs/go/app/ConnectService';
import * as StartGo from '../../wailsjs/go/app/StartService';
import { EventsOn, Quit } from '../../wailsjs/runtime/runtime';
import type { app, chat, connectapp, forms, i18n, importcfg, linkcheck, mcp, store, visible } from '../../wailsjs/go/models';
import * as ev from './events';
import { isGoMessage, msg, t, type GoMessage } from './i18n.svelte';

/**
 * A Go type as the page receives it. The generated classes of models.ts have
 * constructors and convertValues, but Wails sends plain JSON: the page gets
 * the fields only, nested ones too. Go adds its text to every i18n.Message
 * it sends (i18n.Message.MarshalJSON), which the generated class cannot say.
 * A Go enum (a TypeScript enum in models.ts, such as store.ToolMode) arrives
 * as its values' text.
 */
export type Plain<T> = 0 extends 1 & T
  ? T
  : T extends string
    ? `${T}`
    : T extends readonly (infer U)[]
      ? Plain<U>[]
      : T extends object
        ? T extends i18n.Message
          ? keyof T extends keyof i18n.Message
            ? Message
            : Fields<T>
          : Fields<T>
        : T;
type Fields<T> = { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: Plain<T[K]> };

/** A bound Go service as the page calls it: plain values in, plain values out. */
type Bound<M> = {
  [K in keyof M]: M[K] extends (...args: infer A) => Promise<infer R>
    ? (...args: { [I in keyof A]: Plain<A[I]> }) => Promise<Plain<R>>
    : never;
};
const bound = <M>(m: M) => m as unknown as Bound<M>;
const Servers = bound(ServersGo);
const Tools = bound(ToolsGo);
const Settings = bound(SettingsGo);
const Questions = bound(QuestionsGo);
const Chat = bound(ChatGo);
const Providers = bound(ProvidersGo);
const Policies = bound(PoliciesGo);
const Theme = bound(ThemeGo);
const Import = bound(ImportGo);
const Resources = bound(ResourcesGo);
const Prompts = bound(PromptsGo);
const Apps = bound(AppsGo);
const ClientApps = bound(ClientAppsGo);
const Connect = bound(ConnectGo);
const Start = bound(StartGo);

/** A sentence from Go (i18n.Message): a catalogue key, its arguments, and its English text. Show it with msg(); never write such sentences here. */
export type Message = GoMessage;
/** Per field name ("" for the whole), what Go found wrong. */
export type MessageErrors = Record<string, Message>;
/** Per input field, what is wrong with it, in the window's language. */
export type FieldErrors = Record<string, string>;
/** An answer's values, typed as the schema wants them (numbers, booleans, lists). */
export type AnswerValues = Record<string, unknown>;
/** A tool-call mode (store.ToolMode): ask, allow, deny, or for one tool 'default' (its server's applies). */
export type ToolMode = Plain<store.ToolMode>;
/** What a server's tool calls do: ask each time, allow or deny without asking. */
export type ToolCallMode = Exclude<ToolMode, `${store.ToolMode.DEFAULT}`>;

export type ServerInput = Plain<app.ServerInput>;
export type ServerView = Plain<app.ServerView>;
export type ServerList = Plain<app.ServerList>;
export type StatusView = Plain<app.StatusView>;
export type Field = Plain<forms.Field>;
export type Form = Plain<forms.Form>;
export type ToolHints = Plain<app.ToolHints>;
export type ToolView = Plain<app.ToolView>;
export type ArgumentCheck = Plain<app.ArgumentCheck>;
export type ContentView = Plain<app.ContentView>;
export type ToolResultView = Plain<app.ToolResultView>;
export type ResourceListView = Plain<app.ResourceListView>;
export type ResourceView = Plain<app.ResourceView>;
export type TemplateView = Plain<app.TemplateView>;
export type ResourceContentView = Plain<app.ResourceContentView>;
export type ResourceReadView = Plain<app.ResourceReadView>;
export type CompletionView = Plain<app.CompletionView>;
export type PromptView = Plain<app.PromptView>;
export type PromptResultView = Plain<app.PromptResultView>;
export type AppInfo = Plain<app.AppInfo>;
/** Settings → About's licences: Gatehouse's own and those of what is compiled in. */
export type Licences = Plain<app.Licences>;
export type LanguageView = Plain<app.LanguageView>;
export type SettingsView = Plain<app.SettingsView>;
export type ThemeView = Plain<app.ThemeView>;
export type LinkReport = Plain<linkcheck.Report>;
export type QuestionView = Plain<app.QuestionView>;
export type TextSegment = Plain<visible.Segment>;
export type JsonNode = Plain<visible.Node>;
export type ToolCallView = Plain<mcp.ToolCall>;
export type OpenedView = Plain<app.OpenedView>;
export type WaitingView = Plain<mcp.Waiting>;
export type BrokerNotice = Plain<mcp.Notice>;
export type Snapshot = Plain<app.SnapshotView>;
export type HistoryView = Plain<app.HistoryView>;
export type HistoryPage = Plain<app.HistoryPage>;
export type ToolPolicyView = Plain<app.ToolPolicyView>;
export type ServerPolicyView = Plain<app.ServerPolicyView>;
export type ConversationGrant = Plain<app.ConversationGrant>;
export type PresetView = Plain<app.PresetView>;
export type ProviderInput = Plain<app.ProviderInput>;
export type ProviderView = Plain<app.ProviderView>;
export type ProviderList = Plain<app.ProviderList>;
export type ModelView = Plain<app.ModelView>;
export type Conversation = Plain<store.Conversation>;
export type ChatMessage = Plain<store.Message>;
export type StoredToolCall = Plain<store.ToolCall>;
export type AttachmentRequest = Plain<chat.AttachmentRequest>;
export type LogLine = Plain<mcp.LogLine>;
export type ImportLocation = Plain<app.ImportLocation>;
export type ImportPreview = Plain<importcfg.Preview>;
export type ImportEntry = Plain<importcfg.Entry>;
export type CheckedLink = Plain<app.CheckedLink>;
export type AppView = Plain<app.AppView>;
export type AppLimits = Plain<app.AppLimits>;
export type ToolAppView = Plain<app.ToolAppView>;
/** Another app that used the gateway, and what the person chose for it (store.ClientApp); firstSeen and lastSeen are RFC 3339. */
export type ClientApp = Omit<Plain<store.ClientApp>, 'firstSeen' | 'lastSeen'> & { firstSeen: string; lastSeen: string };
export type ClientToolMode = Plain<store.ClientToolMode>;
export type ConnectStatus = Plain<connectapp.Status>;
export type ConnectRequest = Plain<app.ConnectRequest>;
export type ConnectChange = Plain<connectapp.Change>;
export type ConnectWritten = Plain<connectapp.Written>;
export type ConnectUndone = Plain<connectapp.Undone>;
export type ConnectUndoChange = Plain<connectapp.UndoChange>;
export type ConnectUndoRequest = Plain<app.UndoRequest>;

// The payloads of events no bound method returns, so that Wails generates
// no class for them; app/events_test.go checks their fields against Go's.

/** A progress notification of a running call (mcp.Progress): total 0 when the server does not know how much there is; message is server text. */
export type Progress = {
  progress: number;
  total: number;
  message: string;
};
/** How far a running call of the Tools pane got (app.ToolProgress). */
export type ToolProgress = {
  callId: string;
  progress: number;
  total: number;
  message: string;
};
/** A subscribed resource that changed (app.ResourceUpdate). */
export type ResourceUpdate = {
  serverId: string;
  uri: string;
};
/** A tool call's card while a turn runs (chat.Call); state is asking, running, waiting, done, failed or denied. */
export type ChatCall = {
  id: string;
  serverId: string;
  serverName: string;
  tool: string;
  arguments: unknown;
  view?: JsonNode;
  state: string;
  result: string;
  note: Message;
  progress?: Progress;
  /** The tool has an interface (MCP Apps), shown in the card once the call is done. */
  app?: boolean;
};
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

/** MCP's log levels, least severe first. */
export const logLevels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

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
  /** What Go sent beside the sentence to show folded (app.windowError: what the browser opener said); '' for none. */
  get details(): string {
    const d = (this.goMessage as { details?: unknown } | null)?.details;
    return typeof d === 'string' ? d : '';
  }
}

/** Whether a failed open of a checked page failed in the system's browser (not Gatehouse's checks): the person can still copy the address. */
export function isBrowserFailure(e: unknown): e is GoError {
  return (
    e instanceof GoError &&
    (e.is('links.error.browserFailed') || e.is('links.error.noBrowser') || e.is('links.error.browserStart'))
  );
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

async function call<T>(fn: () => Promise<T>): Promise<T> {
  if (!(window as { go?: unknown }).go) throw new GoError(null, t('app.noCore'));
  try {
    return await fn();
  } catch (e) {
    if (e instanceof GoError) throw e;
    throw new GoError(goMessageOf(e), errorText(e));
  }
}

/** Go's field errors as sentences in the window's language. */
function fieldErrors(errs: MessageErrors | null): FieldErrors {
  return Object.fromEntries(Object.entries(errs ?? {}).map(([k, m]) => [k, msg(m)]));
}

// --- Servers pane -----------------------------------------------------------

/** Every server with its status, numbered as Go read it (see servers.svelte.ts). */
export const listServers = () => call(() => Servers.List());

/** Field errors for an editor's input; an empty object means valid. */
export async function validateServer(id: string, input: ServerInput): Promise<FieldErrors> {
  return fieldErrors(await call(() => Servers.Validate(id, input)));
}

export const addServer = (input: ServerInput) => call(() => Servers.Add(input));

export const updateServer = (id: string, input: ServerInput) => call(() => Servers.Update(id, input));

export const removeServer = (id: string) => call(() => Servers.Remove(id));

export const setServerEnabled = (id: string, enabled: boolean) => call(() => Servers.SetEnabled(id, enabled));

/** Starts signing in to a server that needs it: Go shows the sign-in consent. */
export const signIn = (id: string) => call(() => Servers.SignIn(id));

/** Deletes a server's sign-in tokens. */
export const signOut = (id: string) => call(() => Servers.SignOut(id));

export const reconnectServer = (id: string) => call(() => Servers.Reconnect(id));

export async function serverLog(id: string): Promise<string> {
  return (await call(() => Servers.Log(id))) ?? '';
}

/** A server's log line by line, with where each came from and a log message's level. */
export const serverLogLines = (id: string) => call(() => Servers.LogLines(id));

/** Sets the level of log messages asked of a server (logging/setLevel); '' for the server's own default. */
export const setLogLevel = (id: string, level: string) => call(() => Servers.SetLogLevel(id, level));

/** Asks the person for a folder with the system's folder dialog; its path, or '' when they cancelled. */
export const chooseFolder = () => call(() => Servers.ChooseFolder());

// --- Import (Servers pane) -----------------------------------------------------

/** The files of other apps' MCP servers at the places those apps keep them on this computer. */
export const importLocations = () => call(() => Import.Locations());

/** Asks the person for a file with the system's open dialog; "" when they cancelled. */
export const chooseImportFile = () => call(() => Import.ChooseFile());

/** Reads a file of another app's servers and says what importing it would do; nothing is written. */
export const previewImport = (path: string) => call(() => Servers.PreviewImport(path));

/** Imports the chosen servers of a previewed file; Go refuses, importing nothing, when the file changed since. */
export const importServers = (req: Plain<app.ImportRequest>) => call(() => Servers.Import(req));

/** What is wrong with a name for a new server, in the window's language; "" when it is fine. */
export async function checkImportName(name: string): Promise<string> {
  const m = await call(() => Import.CheckName(name));
  return m.key ? msg(m) : '';
}

// --- Tools pane ---------------------------------------------------------------

export const listTools = (serverID: string) => call(() => Tools.List(serverID));

/** The form Go made from a tool's input schema, for the tool the person opened, with the schema. */
export const toolForm = (serverID: string, tool: string) => call(() => Tools.Form(serverID, tool));

/** Reads a tool form's values as a call would send them, without calling. */
export const checkArguments = (serverID: string, tool: string, values: AnswerValues) =>
  call(() => Tools.Check(serverID, tool, values));

/** Calls a tool with JSON arguments; Go checks them first and sends nothing when they do not pass. */
export const callTool = (callID: string, serverID: string, tool: string, argsJSON: string) =>
  call(() => Tools.Call(callID, serverID, tool, argsJSON));

/** Opens a resource link of a tool result, by the ID Go gave it, after the person's consent (E31). */
export const openResultLink = (linkID: string) => call(() => Tools.OpenLink(linkID));

export const cancelCall = (callID: string) => call(() => Tools.Cancel(callID));

// --- Resources and prompts (Tools pane) ---------------------------------------

/** A connected server's resources and templates, listed now. */
export const listResources = (serverID: string) => call(() => Resources.List(serverID));

/** Reads a resource on a server (listed, made from a template, or a link in its result); text comes as its first page. */
export const readResource = (serverID: string, uri: string) => call(() => Resources.Read(serverID, uri));

/** The page of a read item's text that starts at offset (a nextOffset Go gave). */
export const resourcePage = (serverID: string, uri: string, index: number, offset: number) =>
  call(() => Resources.Page(serverID, uri, index, offset));

/** Asks where to save a read item and writes it there; the path, or "" when the person cancelled. */
export const saveResource = (serverID: string, uri: string, index: number) =>
  call(() => Resources.Save(serverID, uri, index));

/** Fills a template's variables: the URI to read, or a sentence saying what is wrong. */
export const expandTemplate = (uriTemplate: string, values: Record<string, string>) =>
  call(() => Resources.Expand(uriTemplate, values));

/** The server's suggestions for a template variable that start like value. */
export const completeTemplate = (serverID: string, uriTemplate: string, variable: string, value: string, filled: Record<string, string>) =>
  call(() => Resources.Complete(serverID, uriTemplate, variable, value, filled));

/** Asks the server to say when a resource changes (onResourceUpdated). */
export const subscribeResource = (serverID: string, uri: string) => call(() => Resources.Subscribe(serverID, uri));

export const unsubscribeResource = (serverID: string, uri: string) => call(() => Resources.Unsubscribe(serverID, uri));

/** A connected server's prompts with their arguments. */
export const listPrompts = (serverID: string) => call(() => Prompts.List(serverID));

/** The messages a prompt produces with args; a missing required argument is named before anything is sent. */
export const getPrompt = (serverID: string, name: string, args: Record<string, string>) =>
  call(() => Prompts.Get(serverID, name, args));

/** The server's suggestions for a prompt argument that start like value. */
export const completePrompt = (serverID: string, prompt: string, argument: string, value: string, filled: Record<string, string>) =>
  call(() => Prompts.Complete(serverID, prompt, argument, value, filled));

// --- Settings pane ------------------------------------------------------------

export const appInfo = () => call(() => Settings.Info());

export const getSettings = () => call(() => Settings.Get());

export const saveSettings = (v: SettingsView) => call(() => Settings.Save(v));

/** The language setting: the person's choice ('' for the system's), Go's language now, and the system's as Go reads it. */
export const getLanguage = () => call(() => Settings.Language());

/** Stores the language choice ('' for the system's, 'en', 'zh-CN'); Go renders its sentences in it from now on. */
export const setLanguage = (choice: string) => call(() => Settings.SetLanguage(choice));

/** Whether the person dismissed the first-start welcome (it then never shows again). */
export const welcomeDismissed = () => call(() => Settings.WelcomeDismissed());

/** Stores that the person dismissed the first-start welcome. */
export const dismissWelcome = () => call(() => Settings.DismissWelcome());

/** The settings pane's section the person chose last ('' for none yet), kept across restarts. */
export const settingsSection = () => call(() => Settings.Section());

/** Keeps the settings pane's section the person chose. */
export const setSettingsSection = (section: string) => call(() => Settings.SetSection(section));

/** Gatehouse's own licence and what the binary has compiled in, each with its version and licence. */
export const licences = () => call(() => Settings.Licences());

/** Shows Gatehouse's data folder in the file manager (Go opens that folder only). */
export const openDataFolder = () => call(() => Settings.OpenDataFolder());

/** Checks one of Gatehouse's documentation addresses, by name ('readme', 'docs', 'licence'), for the consent display. */
export const checkDocsLink = (name: string) => call(() => Settings.CheckDocsLink(name));

/** Opens an address checkDocsLink checked, by its ID, after the person's consent. */
export const openDocsLink = (linkID: string) => call(() => Settings.OpenDocsLink(linkID));

/** Settings → Theme ('system', 'light' or 'dark'), and the desktop's preference as Go read it ('' when it states none). */
export const getTheme = () => call(() => Theme.Get());

/** Saves Settings → Theme; Go shows it at once and sends it to every window. */
export const setTheme = (choice: string) => call(() => Theme.Set(choice));

// --- Model providers (Settings → Models) --------------------------------------

/** The providers Gatehouse knows, local servers first. */
export const providerPresets = () => call(() => Providers.Presets());

/** Field errors for the provider editor's input; id is "" when adding. An empty object means valid. */
export async function validateProvider(id: string, input: ProviderInput): Promise<FieldErrors> {
  return fieldErrors(await call(() => Providers.Validate(id, input)));
}

/** Adds a provider; an empty apiKey keeps the saved key, clearKey removes it. */
export const addProvider = (input: ProviderInput) => call(() => Providers.Add(input));

export const updateProvider = (id: string, input: ProviderInput) => call(() => Providers.Update(id, input));

/** Deletes a provider and its saved API key. */
export const removeProvider = (id: string) => call(() => Providers.Remove(id));

/** Makes a provider the one new conversations start with. */
export const setDefaultProvider = (id: string) => call(() => Providers.SetDefault(id));

/**
 * Lists the models the endpoint in the editor offers, without saving; id is
 * the provider being edited ("" when adding), whose saved key is used when
 * the input has none. A failure to reach the endpoint is a problem, not an error.
 */
export const testProvider = (id: string, input: ProviderInput) => call(() => Providers.Test(id, input));

/** Lists the models a saved provider's endpoint offers, or a sentence saying why it could not. */
export const providerModels = (id: string) => call(() => Providers.TestSaved(id));

/** The model providers the person set up (never their API keys), numbered as Go read them (see providers.svelte.ts). */
export const listProviders = () => call(() => Providers.List());

// --- Tool permissions (Settings) ------------------------------------------------

/** Every server's tool permissions, with the tools it offers now when connected. */
export const listPolicies = () => call(() => Policies.List());

/** Sets what a call of any of the server's tools does (a tool's own mode wins). */
export const setToolCallMode = (serverID: string, mode: ToolCallMode) => call(() => Policies.SetMode(serverID, mode));

/** Trusts the server's read-only claims, or stops trusting them. */
export const setTrusted = (serverID: string, trusted: boolean) => call(() => Policies.SetTrusted(serverID, trusted));

/** Sets one tool's own mode; 'default' removes it, so the server's applies. */
export const setToolMode = (serverID: string, tool: string, mode: ToolMode) =>
  call(() => Policies.SetToolMode(serverID, tool, mode));

/** How the server's questions and sampling requests are answered: shown to the person, or declined unseen. */
export const setRequestPolicy = (serverID: string, mode: 'ask' | 'decline') =>
  call(() => Policies.SetRequests(serverID, mode));

/** Puts the server back to the defaults: everything asked, no claim trusted. */
export const resetPolicies = (serverID: string) => call(() => Policies.Reset(serverID));

/** The tools allowed in a conversation, in the order they were allowed. */
export const conversationGrants = (conversationID: string) => call(() => Policies.ConversationGrants(conversationID));

/** Ends one tool's allowance in a conversation (refused while a turn runs there); returns those left. */
export const revokeConversationGrant = (conversationID: string, serverID: string, tool: string) =>
  call(() => Policies.RevokeConversationGrant(conversationID, serverID, tool));

// --- Connected apps and Connect an app (Settings) -------------------------------

/** The other apps that used the gateway, the latest seen first. */
export const listClientApps = () => call(() => ClientApps.List()) as Promise<ClientApp[]>;

/** Saves what the person chose for an app (servers it sees, its own tool modes, cut off); the record as stored. */
export const updateClientApp = (a: ClientApp) =>
  call(() => ClientApps.Update(a as unknown as Plain<store.ClientApp>)) as Promise<ClientApp>;

/** Every server's tool permissions as they apply to the app: its own modes over the chat's; each tool's effective mode is what a call from the app does. */
export const clientAppPermissions = (id: string) => call(() => ClientApps.Permissions(id));

/** Cuts an app off from the person's servers (cut true), or lets it back in. */
export const cutOffClientApp = (id: string, cut: boolean) => call(() => ClientApps.CutOff(id, cut)) as Promise<ClientApp>;

/** Forgets an app: its next session is a first one, seeing every server. */
export const forgetClientApp = (id: string) => call(() => ClientApps.Forget(id));

/** Calls cb with an app's ID whenever the apps' records changed (app.EventClientApps): one used the gateway, its calls were counted, its settings changed. */
export const onClientAppsChanged = (cb: (id: string) => void) => on(ev.EventClientApps, cb);

/** The apps Gatehouse can connect to its gateway, with the state of each one's file. */
export const connectApps = () => call(() => Connect.Apps());

/** The exact change connecting an app would make to its file; nothing is written. */
export const previewConnect = (req: ConnectRequest) => call(() => Connect.Preview(req));

/** Writes the change the person confirmed (req carries its preview's digest and result); refused when the file changed since. */
export const connectApp = (req: ConnectRequest) => call(() => Connect.Connect(req));

/** Takes back the last change Gatehouse made to the app's file. */
export const undoConnect = (appID: string) => call(() => Connect.Undo(appID));

/** What undoing Gatehouse's last change to the app's file does now: its backup put back whole, or (the app changed the file since) only Gatehouse's part taken out, as a diff; nothing is written. */
export const previewUndoConnect = (appID: string) => call(() => Connect.PreviewUndo(appID));

/** Takes Gatehouse's part out of a file the app changed since, as the preview (its digest and result) showed; refused when the file changed again. */
export const undoConnectChanged = (req: ConnectUndoRequest) => call(() => Connect.UndoChanged(req));

// --- Questions (consent dialog, queue, opened pages) ---------------------------

/** The broker's snapshot now; a (re)loaded page asks once, then follows onQuestions. */
export const questionsSnapshot = () => call(() => Questions.Snapshot());

/** Consent to a web page question: Go opens the URL it checked in the system browser, then answers accept (E21). */
export const openPage = (id: string) => call(() => Questions.Open(id));

export const openAgain = (id: string) => call(() => Questions.OpenAgain(id));

/** "I've finished": a call waiting for the page goes on. */
export const finishedPage = (id: string) => call(() => Questions.Finished(id));

/** Stop waiting for a page; a call waiting for it fails. */
export const stopWaiting = (id: string) => call(() => Questions.StopWaiting(id));

/** Errors per field for an answer, without sending it (E15). */
export const validateAnswer = (id: string, values: AnswerValues) => call(() => Questions.Validate(id, values));

/** Sends the answer if Go finds it valid; otherwise nothing is sent and the errors come back. */
export const submitAnswer = (id: string, values: AnswerValues) => call(() => Questions.Submit(id, values));

/** Allows the tool call on screen: once, for the rest of the conversation, or always. */
export const allowToolCall = (id: string, scope: 'once' | 'conversation' | 'always') =>
  call(() => Questions.Allow(id, scope));

/** Sends a sampling request to the person's model, with their edits. */
export const reviewSampling = (id: string, edit: Plain<mcp.SamplingEdit>) => call(() => Questions.ReviewSampling(id, edit));

/** Sends the model's answer to the server that asked for it. */
export const acceptModelAnswer = (id: string) => call(() => Questions.Accept(id));

export const declineQuestion = (id: string) => call(() => Questions.Decline(id));

export const cancelQuestion = (id: string) => call(() => Questions.Cancel(id));

/** Declines or cancels a question that waits in the queue (E28). */
export const refuseQuestion = (id: string, action: 'decline' | 'cancel') => call(() => Questions.Refuse(id, action));

/** Removes a broker notice the person has read. */
export const dismissNotice = (id: string) => call(() => Questions.DismissNotice(id));

export const muteServer = (serverID: string, minutes: number) => call(() => Questions.Mute(serverID, minutes));

/** A page of the history, older than the entry with ID before (0: the newest). */
export const history = (serverID: string, outcome: string, before = 0) =>
  call(() => Questions.History(serverID, outcome, before));

export const clearHistory = () => call(() => Questions.ClearHistory());

/** Asks Go for an OS notification and the window's attention (the window is not focused). */
export const notifyUnfocused = (id: string) => call(() => Questions.NotifyUnfocused(id));

// --- Chat pane ----------------------------------------------------------------

/** Conversations, the most recently active first; a query finds those whose title or messages contain it. */
export const listConversations = (query: string) => call(() => Chat.Conversations(query));

/** Starts a conversation with a provider ("" for the default), a model ("" for the provider's), and servers (none: every enabled one). */
export const newConversation = (providerID: string, model: string, systemPrompt: string, serverIDs: string[]) =>
  call(() => Chat.NewConversation(providerID, model, systemPrompt, serverIDs));

/** A part of a conversation's stored messages, oldest first, and whether older ones exist. */
export type MessagePage = { messages: ChatMessage[]; more: boolean };

/**
 * A page of a conversation's stored messages (Go's MessagePage): the
 * newest `limit` (0: all) of those with from <= seq < before (before 0: to
 * the end), stretched back to the start of their turn.
 */
export const conversationMessages = (id: string, page: { from?: number; before?: number; limit?: number } = {}): Promise<MessagePage> =>
  call(() => Chat.MessagePage(id, page.from ?? 0, page.before ?? 0, page.limit ?? 0));

export const renameConversation = (id: string, title: string) => call(() => Chat.Rename(id, title));

/** Stops a conversation's turn and deletes it with its messages. */
export const deleteConversation = (id: string) => call(() => Chat.Delete(id));

/** Sends the person's message; the model's turn follows as chat events, ending with done or failed. */
export const sendMessage = (id: string, text: string) => call(() => Chat.Send(id, text));

/** Sends the person's message with resources attached (read when it is sent, or a prompt's contents); events follow as for sendMessage. */
export const sendWithAttachments = (id: string, text: string, attachments: AttachmentRequest[]) =>
  call(() => Chat.SendWithAttachments(id, text, attachments));

/** Cancels one running tool call of a conversation from its card; the model reads that the person cancelled it. */
export const cancelChatCall = (conversationID: string, callID: string) =>
  call(() => Chat.CancelCall(conversationID, callID));

/** Stops a conversation's running turn: the stream, a question on screen, a running tool call. */
export const stopTurn = (id: string) => call(() => Chat.Stop(id));

/**
 * Changes a conversation's provider, model ("" for the provider's), system
 * prompt and servers (none: every enabled one) for its next turns. Go
 * refuses while a turn runs, and for a provider or server that does not exist.
 */
export const updateConversation = (id: string, providerID: string, model: string, systemPrompt: string, serverIDs: string[]) =>
  call(() => Chat.UpdateConversation(id, providerID, model, systemPrompt, serverIDs));

/** Marks the tool results before the person's last message dropped; returns how many. The model gets a placeholder for each. */
export const dropOldToolResults = (id: string) => call(() => Chat.DropOldToolResults(id));

/** Answers the person's last message again after a failed turn; events follow as for sendMessage. */
export const retryTurn = (id: string) => call(() => Chat.Retry(id));

/** Asks where to save the conversation as Markdown and writes it; the path, or "" when the person cancelled. */
export const exportConversation = (id: string) => call(() => Chat.Export(id));

/** Checks an address the model wrote in a conversation for the consent display; refused with a sentence otherwise. */
export const checkChatLink = (conversationID: string, url: string) => call(() => Chat.CheckLink(conversationID, url));

/** Opens a checked address of the model's text, by its ID, after the person's consent (E21). */
export const openChatLink = (linkID: string) => call(() => Chat.OpenLink(linkID));

// --- MCP Apps (the frame of a tool's interface) -------------------------------
// What an app asks comes here only through its frame (lib/apps.ts); Go checks
// every request against the instance it names, and asks the person.

/** Opens the app of a server's tool on an origin of its own, for a call (its ID; "" for none) whose arguments and result it receives. */
export const openApp = (serverID: string, tool: string, callID: string, conversationID: string) =>
  call(() => Apps.Open(serverID, tool, callID, conversationID));

/** Closes an app instance: Go serves it nothing more and refuses its requests. */
export const closeApp = (instanceID: string) => call(() => Apps.Close(instanceID));

/**
 * Tells Go the window's first frame is on the screen: it connects the servers
 * and opens its sockets only now, so that their work does not slow the
 * window's start (app/startup.go).
 */
export const windowDrawn = () => call(() => Start.Drawn());

/** Closes every app instance Go has open: the window's page starts with none (a reload leaves the old page's behind). */
export const closeAllApps = () => call(() => Apps.CloseAll());

/** Records which of the app's declared permissions the person allowed; the instance as it now is. */
export const allowAppPermissions = (instanceID: string, allowed: string[]) =>
  call(() => Apps.AllowPermissions(instanceID, allowed));

/** The app's tools/call (a tool of its own server meant for apps, under the person's permissions); the CallToolResult as JSON. */
export const appCallTool = (instanceID: string, tool: string, argsJSON: string) =>
  call(() => Apps.CallTool(instanceID, tool, argsJSON));

/** The app's resources/read of its own server's resource; the ReadResourceResult as JSON. */
export const appReadResource = (instanceID: string, uri: string) => call(() => Apps.ReadResource(instanceID, uri));

/**
 * The app's ui/open-link: Go checks the address (refused with a sentence otherwise) and asks the
 * person in the consent dialog; whether the page was opened.
 */
export const openAppLink = (instanceID: string, url: string) => call(() => Apps.OpenLink(instanceID, url));

/** The app's ui/message, shown to the person first; whether they let it into the conversation. */
export const appMessage = (instanceID: string, paramsJSON: string) => call(() => Apps.Message(instanceID, paramsJSON));

/** The app's ui/update-model-context, shown to the person first; whether they accepted it. */
export const appUpdateContext = (instanceID: string, paramsJSON: string) =>
  call(() => Apps.UpdateContext(instanceID, paramsJSON));

// --- Events -------------------------------------------------------------------

type Unsubscribe = () => void;

/** Calls cb with what each event named name carries (events.ts types them). */
function on<E extends keyof ev.EventPayloads & string>(name: E, cb: (payload: ev.EventPayloads[E]) => void): Unsubscribe {
  if (!(window as { runtime?: unknown }).runtime) return () => {};
  return EventsOn(name, cb as (payload: unknown) => void);
}

/** Calls cb with every server and its status whenever any server changes. */
export const onServersChanged = (cb: (list: ServerList) => void) => on(ev.EventServers, cb);
/** Calls cb with a server's ID whenever that server's tool list changed. */
export const onToolsChanged = (cb: (serverID: string) => void) => on(ev.EventTools, cb);
/** Calls cb with how far a running call of the Tools pane got. */
export const onProgress = (cb: (p: ToolProgress) => void) => on(ev.EventProgress, cb);
/** Calls cb with a server's ID whenever its log gained lines (at most every 250 ms). */
export const onLogChanged = (cb: (serverID: string) => void) => on(ev.EventLog, cb);
/** Calls cb with a server's ID whenever its resources may have changed. */
export const onResourcesChanged = (cb: (serverID: string) => void) => on(ev.EventResources, cb);
/** Calls cb with a server's ID whenever its prompts may have changed. */
export const onPromptsChanged = (cb: (serverID: string) => void) => on(ev.EventPrompts, cb);
/** Calls cb when a resource the person subscribed to changed. */
export const onResourceUpdated = (cb: (u: ResourceUpdate) => void) => on(ev.EventResourceUpdated, cb);
/** Calls cb with every snapshot of the broker's questions Go publishes. */
export const onQuestions = (cb: (s: Snapshot) => void) => on(ev.EventQuestions, cb);
/** Calls cb with every event of every running chat turn. */
export const onChat = (cb: (e: ChatEvent) => void) => on(ev.EventChat, cb);
/** Calls cb with the language setting whenever the person changes it. */
export const onLanguage = (cb: (v: LanguageView) => void) => on(ev.EventLanguage, cb);
/** Calls cb with every provider whenever the providers change. */
export const onProvidersChanged = (cb: (list: ProviderList) => void) => on(ev.EventProviders, cb);
/** Calls cb with a server's ID whenever its tool permissions or request policy change, also from the consent dialog. */
export const onPoliciesChanged = (cb: (serverID: string) => void) => on(ev.EventPolicies, (v) => cb(v.serverId));
/** Calls cb whenever Settings → Theme or the desktop's light/dark preference changes. */
export const onThemeChanged = (cb: (v: ThemeView) => void) => on(ev.EventTheme, cb);

/** Quits Gatehouse (Ctrl+Q), as closing its window does: Go saves the window's size and closes every server. */
export function quitApp(): void {
  if ((window as { runtime?: unknown }).runtime) Quit();
}

/** A fresh ID for a tool call, so that it can be cancelled. */
export function newCallID(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `call-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
