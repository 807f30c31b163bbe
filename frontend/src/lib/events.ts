// The names of the events the Go core sends to the window, written once,
// and what each carries. They must match the Event* constants of the Go
// package app and the types Go sends with them: a Go test
// (app/events_test.go) reads this file and fails when the two disagree.

import type { app } from '../../wailsjs/go/models';
import type { ChatEvent, Plain, ResourceUpdate, ToolProgress } from './api';

/** Every server with its status, whenever any server changes (app.EventServers). */
export const EventServers = 'servers:changed';
/** A server's ID, whenever its tool list changed (app.EventTools). */
export const EventTools = 'tools:changed';
/** The broker's snapshot of every pending question (app.EventQuestions). */
export const EventQuestions = 'questions';
/** Something that happened in a running chat turn (app.EventChat). */
export const EventChat = 'chat';
/** Every model provider, whenever one is added, changed or removed, or the default changes (app.EventProviders). */
export const EventProviders = 'providers:changed';
/** One server's tool permissions and request policy, whenever they change, also from the consent dialog (app.EventPolicies). */
export const EventPolicies = 'policies:changed';
/** The language setting, whenever the person changes it in Settings (app.EventLanguage). */
export const EventLanguage = 'language:changed';
/** Settings → Theme and the desktop's light/dark preference, whenever either changes (app.EventTheme). */
export const EventTheme = 'theme:changed';
/** A server's ID, whenever its resources may have changed: its list changed or it connected again (app.EventResources). */
export const EventResources = 'resources:changed';
/** A server's ID, whenever its prompts may have changed (app.EventPrompts). */
export const EventPrompts = 'prompts:changed';
/** {serverId, uri} of a subscribed resource that changed (app.EventResourceUpdated). */
export const EventResourceUpdated = 'resources:updated';
/** A server's ID, whenever its log gained lines; at most every 250 ms per server (app.EventLog). */
export const EventLog = 'log:changed';
/** How far a running call of the Tools pane got, as its server said: { callId, progress, total, message } (app.EventProgress). */
export const EventProgress = 'tools:progress';
/** An app's ID, whenever its record changed: it used the gateway, its calls were counted, its settings changed; at most every 250 ms (app.EventClientApps). */
export const EventClientApps = 'clientapps:changed';

/** What each event carries: a generated type (Plain<app.X>, Go's app.X) or one of api.ts's (Go's type of the same name), or a server's ID. */
export type EventPayloads = {
  [EventServers]: Plain<app.ServerList>;
  [EventTools]: string;
  [EventQuestions]: Plain<app.SnapshotView>;
  [EventChat]: ChatEvent;
  [EventProviders]: Plain<app.ProviderList>;
  [EventPolicies]: Plain<app.ServerPolicyView>;
  [EventLanguage]: Plain<app.LanguageView>;
  [EventTheme]: Plain<app.ThemeView>;
  [EventResources]: string;
  [EventPrompts]: string;
  [EventResourceUpdated]: ResourceUpdate;
  [EventLog]: string;
  [EventProgress]: ToolProgress;
  [EventClientApps]: string;
};
