// The window's side of MCP Apps: the bridge between an app's frame and Go.
//
// An app is untrusted code from a server. It runs in an iframe on an origin
// of its own (gatehouse-app://INSTANCE, served by Go's appframe), and talks
// to the window only by postMessage. ext-apps' AppBridge speaks the host side
// of the protocol (ui/initialize, tool input and result, size changes,
// teardown); every request the app makes goes to Go (AppsService) through
// api.ts, which checks it against the instance and asks the person. No MCP
// client is given to the bridge: nothing reaches a server but through Go.
//
// The window bounds what an app can send: a message larger than
// limits.maxMessageBytes, or more than limits.messagesPerSecond, closes the
// app with a sentence (GuardedTransport); a size request is clamped between
// limits.minHeight and limits.maxHeight; at most limits.maxOpen apps are
// open at once, the oldest is closed for a new one (OpenApps).

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
import type { AppLimits, AppView, CheckedLink } from './api';

/** The scheme Go serves apps on, one origin per instance (appframe.Scheme). */
export const appScheme = 'gatehouse-app:';

/** The frame's sandbox: scripts on the instance's own origin; no popups, top navigation, forms, downloads or modals. */
export const appSandbox = 'allow-scripts allow-same-origin';

/** The display modes Gatehouse offers an app: in its place, or enlarged over the window. */
export const displayModes: McpUiDisplayMode[] = ['inline', 'fullscreen'];

/** The iframe permission-policy feature of each permission an app may declare (McpUiResourcePermissions). */
const features: Record<string, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/**
 * The origin the window may put this instance's frame on with
 * allow-same-origin, or '' when it must not: the URL must be on Gatehouse's
 * app scheme, its origin the instance's own as Go named it, and never the
 * window's.
 */
export function frameOrigin(view: Pick<AppView, 'url' | 'origin'>): string {
  let u: URL;
  try {
    u = new URL(view.url);
  } catch {
    return '';
  }
  if (u.protocol !== appScheme || !u.host || u.username || u.password) return '';
  const origin = `${u.protocol}//${u.host}`;
  if (origin !== view.origin || origin === globalThis.location?.origin) return '';
  return origin;
}

/** The frame's allow attribute from the permissions the person allowed (and only the four known ones); '' for none. */
export function allowAttribute(allowed: readonly string[]): string {
  const out: string[] = [];
  for (const p of allowed) {
    const f = Object.hasOwn(features, p) ? features[p] : undefined;
    if (f && !out.includes(f)) out.push(f);
  }
  return out.join('; ');
}

/** A height an app asked for, within the limits; null when it named none usable. */
export function clampHeight(height: unknown, limits: Pick<AppLimits, 'minHeight' | 'maxHeight'>): number | null {
  if (typeof height !== 'number' || !Number.isFinite(height)) return null;
  return Math.round(Math.min(Math.max(height, limits.minHeight), limits.maxHeight));
}

/** Why the window closed an app that misbehaved. */
export type Violation = 'tooBig' | 'flood';

/**
 * Counts what an app sends: each message's size, and how many came in the
 * last second (a bucket of messagesPerSecond that refills at that rate, so
 * a burst of one second's worth passes and a sustained flood does not).
 */
export class MessageGuard {
  private tokens: number;
  private last: number;

  constructor(
    private readonly limits: Pick<AppLimits, 'maxMessageBytes' | 'messagesPerSecond'>,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = limits.messagesPerSecond;
    this.last = now();
  }

  /** What is wrong with one more message of this data, or null. */
  check(data: unknown): Violation | null {
    const t = this.now();
    const rate = this.limits.messagesPerSecond;
    this.tokens = Math.min(rate, this.tokens + ((t - this.last) / 1000) * rate);
    this.last = t;
    if (this.tokens < 1) return 'flood';
    this.tokens -= 1;
    return messageBytes(data, this.limits.maxMessageBytes) > this.limits.maxMessageBytes ? 'tooBig' : null;
  }
}

/** The size of a message as JSON, in UTF-8 bytes; more than max (without counting further) when it is bigger, or not JSON. */
export function messageBytes(data: unknown, max: number): number {
  let text: string;
  try {
    text = typeof data === 'string' ? data : (JSON.stringify(data) ?? '');
  } catch {
    return max + 1; // cycles or BigInt: no JSON-RPC message is like that
  }
  if (text.length > max) return text.length;
  if (text.length * 3 <= max) return text.length;
  return new TextEncoder().encode(text).length;
}

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
  /** Shows the link consent dialog for a checked address; resolves whether the person opened it. */
  askLink(link: CheckedLink): Promise<boolean>;
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
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('Gatehouse got no result');
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
    let link: CheckedLink;
    try {
      link = await api.checkAppLink(id, params.url);
    } catch (e) {
      throw appError(e);
    }
    return (await hooks.askLink(link)) ? {} : { isError: true };
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
    if (!ok) throw new Error('The person declined the context update.');
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

/**
 * The apps open in the window, oldest first, so that no more than maxOpen
 * are: opening one more closes the oldest, which says why.
 */
export class OpenApps {
  private open: { id: string; evict: () => void }[] = [];

  /** Counts an instance as open; closes the oldest ones beyond max. */
  add(id: string, max: number, evict: () => void): void {
    this.open = this.open.filter((o) => o.id !== id);
    this.open.push({ id, evict });
    while (max > 0 && this.open.length > max) this.open.shift()?.evict();
  }

  /** An instance closed. */
  remove(id: string): void {
    this.open = this.open.filter((o) => o.id !== id);
  }

  /** How many are open. */
  get count(): number {
    return this.open.length;
  }
}

/** Every app open in this window. */
export const openApps = new OpenApps();

/** Calls of this session's chat whose tool has an app, so that a card shows it again after the turn is stored. */
const appCalls = new Set<string>();

/** Notes that a chat call's tool has an app. */
export function noteAppCall(callID: string): void {
  appCalls.add(callID);
}

/** Whether a chat call's tool was seen to have an app in this session. */
export function isAppCall(callID: string): boolean {
  return appCalls.has(callID);
}
