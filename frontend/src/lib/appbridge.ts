// The bridge between an app's frame and Go (see apps.ts for the design):
// ext-apps' AppBridge with every request routed to AppsService through
// api.ts, over a transport that hears only the app's frame on its own
// origin, within the limits. Loaded by the frame when it shows an app.

import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type {
  McpUiDisplayMode,
  McpUiHostCapabilities,
  McpUiHostContext,
  McpUiResourcePermissions,
  McpUiTheme,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult, JSONRPCMessage, ReadResourceResult } from '@modelcontextprotocol/client';
import * as api from './api';
import type { AppLimits, AppView } from './api';
import { MessageGuard, clampHeight, displayModes, features, frameOrigin, type Violation } from './apps';

/**
 * PostMessageTransport that hears only its frame, on the instance's origin,
 * within the limits, and posts only to that origin. Its guard listens on
 * the window before the transport's own listener (it is added first), and
 * stops a message it refuses from reaching the bridge.
 */
export class GuardedTransport extends PostMessageTransport {
  private readonly guard: MessageGuard;
  private readonly listener: (e: MessageEvent) => void;

  constructor(
    private readonly frame: Window,
    private readonly origin: string,
    limits: Pick<AppLimits, 'maxMessageBytes' | 'messagesPerSecond'>,
    onviolation: (v: Violation) => void,
    now?: () => number,
  ) {
    super(frame, frame);
    this.guard = new MessageGuard(limits, now);
    let stopped = false;
    this.listener = (e: MessageEvent) => {
      if (e.source !== this.frame) return; // another frame's, or the window's own
      if (stopped || e.origin !== this.origin) {
        e.stopImmediatePropagation();
        return;
      }
      const v = this.guard.check(e.data);
      if (v) {
        stopped = true;
        e.stopImmediatePropagation();
        onviolation(v);
      }
    };
  }

  override async start(): Promise<void> {
    window.addEventListener('message', this.listener);
    await super.start();
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    this.frame.postMessage(message, this.origin);
  }

  override async close(): Promise<void> {
    window.removeEventListener('message', this.listener);
    await super.close();
  }
}

/** How the window looks now, for the app's host context. */
export function currentTheme(): McpUiTheme {
  const set = document.documentElement.dataset.theme;
  if (set === 'dark' || set === 'light') return set;
  return globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** What Gatehouse tells an app it can do, for this instance. */
export function hostCapabilities(view: AppView): McpUiHostCapabilities {
  const permissions: McpUiResourcePermissions = {};
  for (const p of view.allowed) if (Object.hasOwn(features, p)) (permissions as Record<string, object>)[p] = {};
  return {
    openLinks: {},
    serverTools: {},
    serverResources: {},
    message: { text: {} },
    updateModelContext: { text: {} },
    sandbox: {
      permissions,
      csp: { connectDomains: view.connectDomains, resourceDomains: view.resourceDomains, frameDomains: view.frameDomains },
    },
  };
}

/** The host context an app starts with: look, language, how it is shown and how big it may be. */
export function hostContext(view: AppView, displayMode: McpUiDisplayMode, locale: string, width?: number): McpUiHostContext {
  return {
    theme: currentTheme(),
    locale,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: 'desktop',
    displayMode,
    availableDisplayModes: displayModes,
    containerDimensions: width ? { maxHeight: view.limits.maxHeight, width } : { maxHeight: view.limits.maxHeight },
  };
}

/** What the frame does for its app; the bridge calls these, with Go's answers in between. */
export interface FrameHooks {
  /** The app asked for a height, already clamped to the limits. */
  resize(height: number): void;
  /** The app asked for a display mode Gatehouse offers; the mode it is now in. */
  displayMode(mode: McpUiDisplayMode): McpUiDisplayMode;
  /** The app asked to be closed. */
  close(): void;
  /** The app broke a bound: close it, saying why. */
  violation(v: Violation): void;
}

/** The host name and version Gatehouse gives apps. */
export const hostInfo = { name: 'Gatehouse', version: '1' };

/** A sentence for the app from a failed call to Go (what Go said, in English when it said one of its own). */
function appError(e: unknown): Error {
  if (e instanceof api.GoError && e.goMessage) return new Error(e.goMessage.text);
  return new Error(api.errorText(e));
}

/** Parses Go's JSON answer for the app; an answer that is not an object is an error. */
function parsed<T>(json: string): T {
  const v: unknown = JSON.parse(json);
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('no result'); // for the app, not a person: protocol words
  return v as T;
}

/**
 * Makes the bridge for one instance with every handler routed to Go. Nothing
 * is connected yet: connectApp does that.
 */
export function newBridge(view: AppView, hooks: FrameHooks, context: McpUiHostContext): AppBridge {
  const id = view.instanceId;
  const bridge = new AppBridge(null, hostInfo, hostCapabilities(view), { hostContext: context });
  bridge.oncalltool = async (params) => {
    try {
      return parsed<CallToolResult>(await api.appCallTool(id, params.name, JSON.stringify(params.arguments ?? {})));
    } catch (e) {
      throw appError(e);
    }
  };
  bridge.onreadresource = async (params) => {
    try {
      return parsed<ReadResourceResult>(await api.appReadResource(id, params.uri));
    } catch (e) {
      throw appError(e);
    }
  };
  bridge.onopenlink = async (params) => {
    try {
      return (await api.openAppLink(id, params.url)) ? {} : { isError: true };
    } catch (e) {
      throw appError(e);
    }
  };
  bridge.onmessage = async (params) => {
    try {
      return (await api.appMessage(id, JSON.stringify(params))) ? {} : { isError: true };
    } catch (e) {
      throw appError(e);
    }
  };
  bridge.onupdatemodelcontext = async (params) => {
    let ok: boolean;
    try {
      ok = await api.appUpdateContext(id, JSON.stringify(params));
    } catch (e) {
      throw appError(e);
    }
    if (!ok) throw new Error('declined: the person did not accept this context'); // for the app
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    const h = clampHeight(height, view.limits);
    if (h !== null) hooks.resize(h);
  };
  bridge.onrequestdisplaymode = async ({ mode }) => ({
    mode: displayModes.includes(mode) ? hooks.displayMode(mode) : hooks.displayMode('inline'),
  });
  bridge.onrequestteardown = () => hooks.close();
  bridge.onloggingmessage = () => {}; // an app's log is its own; nothing of it is shown
  return bridge;
}

/** An app connected in its frame. */
export interface Connected {
  bridge: AppBridge;
  /** Tells the app it goes away (briefly waiting for its answer) and stops hearing it. */
  teardown(): Promise<void>;
}

/**
 * Connects a bridge to the frame's window before the frame loads the app
 * (the app speaks first), and gives the app the call's arguments and result
 * once it said it is ready.
 */
export async function connectApp(frame: Window, view: AppView, bridge: AppBridge, hooks: Pick<FrameHooks, 'violation'>): Promise<Connected> {
  const origin = frameOrigin(view);
  if (!origin) throw new Error('not an app origin');
  const transport = new GuardedTransport(frame, origin, view.limits, hooks.violation);
  bridge.oninitialized = () => {
    if (view.toolInput != null) void bridge.sendToolInput({ arguments: view.toolInput ?? {} }).catch(() => {});
    if (view.toolResult != null) void bridge.sendToolResult(view.toolResult).catch(() => {});
  };
  await bridge.connect(transport);
  let done = false;
  return {
    bridge,
    async teardown() {
      if (done) return;
      done = true;
      try {
        await bridge.teardownResource({}, { timeout: 500 });
      } catch {
        // an app that does not answer is closed all the same
      }
      await bridge.close().catch(() => {});
    },
  };
}

