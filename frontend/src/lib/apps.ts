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
//
// The bridge itself (AppBridge, with the MCP SDK and zod it needs) is in
// appbridge.ts, which the frame loads when it shows an app: the window
// starts without it.

import type { McpUiDisplayMode } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppLimits, AppView } from './api';
import type { MessageKey } from './i18n.svelte';

/** The scheme Go serves apps on, one origin per instance (appframe.Scheme). */
export const appScheme = 'gatehouse-app:';

/** The frame's sandbox: scripts on the instance's own origin; no popups, top navigation, forms, downloads or modals. */
export const appSandbox = 'allow-scripts allow-same-origin';

/** The display modes Gatehouse offers an app: in its place, or enlarged over the window. */
export const displayModes: McpUiDisplayMode[] = ['inline', 'fullscreen'];

/** The iframe permission-policy feature of each permission an app may declare (McpUiResourcePermissions). */
export const features: Record<string, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** How the window names each permission an app may declare, in the person's language. */
export const permissionKeys: Record<string, MessageKey> = {
  camera: 'appFrame.permission.camera',
  microphone: 'appFrame.permission.microphone',
  geolocation: 'appFrame.permission.geolocation',
  clipboardWrite: 'appFrame.permission.clipboardWrite',
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

/** The permissions the app declared (of the four known ones) that the person has not allowed, in the order declared. */
export function asked(view: Pick<AppView, 'permissions' | 'allowed'>): string[] {
  return view.permissions.filter((p, i) => Object.hasOwn(features, p) && !view.allowed.includes(p) && view.permissions.indexOf(p) === i);
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
 * The apps open in the window, oldest first, so that no more than maxOpen
 * are: before one more opens, the oldest is closed, and says why (Go
 * refuses to open one beyond the maximum).
 */
export class OpenApps {
  private open: { id: string; evict: () => Promise<void> | void }[] = [];
  /** The maximum Go named with the last app it opened; 0 until then. */
  private max = 0;

  /** Counts an instance as open; closes the oldest ones beyond max. */
  add(id: string, max: number, evict: () => Promise<void> | void): void {
    this.max = max;
    this.open = this.open.filter((o) => o.id !== id);
    this.open.push({ id, evict });
    while (max > 0 && this.open.length > max) void this.open.shift()?.evict();
  }

  /** Closes the oldest apps until one more may open. */
  async makeRoom(): Promise<void> {
    while (this.max > 0 && this.open.length >= this.max) {
      const oldest = this.open.shift();
      await oldest?.evict();
    }
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
