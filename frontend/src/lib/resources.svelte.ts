// The resources store: what the Tools pane's Resources tab shows — each
// server's resources and templates (listed again on resources:changed and
// when the server reconnects), the chosen one per server, the values typed
// into each template, each read with the pages of text loaded so far, the
// person's subscriptions and when a subscribed resource last changed. It
// lives here rather than in the view, which is mounted only while its tab
// is shown, so that switching tabs or panes loses nothing.
//
// ResourceReading is one read on screen, used by the Resources tab and by
// "Open in Gatehouse" on a resource in a tool result alike.

import * as api from './api';
import type { ResourceListView, ResourceReadView } from './api';
import { t } from './i18n.svelte';
import { imageTypes, mediaURL } from './links';
import { latest } from './latest';
import { ServerFilter, ServerLists } from './serverlists.svelte';
import { tools } from './tools.svelte';

/** A size in bytes as a person reads it: 512 bytes, 1.5 KB, 2.0 MB. */
export function byteSize(n: number): string {
  if (n < 1024) return t('units.bytes', { n });
  if (n < 1024 * 1024) return t('units.kb', { n: (n / 1024).toFixed(1) });
  return t('units.mb', { n: (n / 1024 / 1024).toFixed(1) });
}

/**
 * The data: URL of an image Go made, if it is one of the image types the
 * window shows (never SVG); "" otherwise, and then no <img> is made.
 */
export function imageSource(dataUrl: string): string {
  const m = /^data:([^;,]*);base64,/.exec(dataUrl);
  return m ? mediaURL(m[1], dataUrl.slice(m[0].length), imageTypes) : '';
}

/** One read of a resource as shown: its items, with the text of each loaded so far. */
export class ResourceReading {
  view = $state<ResourceReadView | null>(null);
  loading = $state(false);
  error = $state('');
  /** The items whose next page is loading, by index. */
  paging = $state<Record<number, boolean>>({});
  /** Why an item's next page or its saving failed, by index. */
  problems = $state<Record<number, string>>({});
  /** Where an item was saved, by index. */
  saved = $state<Record<number, string>>({});
  /** The newest read: an older one that answers late is dropped, and so are its pages. */
  private reads = latest();
  private current = this.reads();

  constructor(
    readonly serverID: string,
    readonly uri: string,
  ) {}

  /** Reads the resource (again): the first page of each text. */
  async load(): Promise<void> {
    const mine = (this.current = this.reads());
    this.loading = true;
    this.error = '';
    try {
      const view = await api.readResource(this.serverID, this.uri);
      if (!mine()) return;
      this.view = view;
      this.paging = {};
      this.problems = {};
      this.saved = {};
    } catch (e) {
      if (mine()) this.error = api.errorText(e);
    } finally {
      if (mine()) this.loading = false;
    }
  }

  /** Loads the next page of an item's text and adds it to what is shown. */
  async more(index: number): Promise<void> {
    const item = this.view?.contents[index];
    if (!item || !item.nextOffset || this.paging[index]) return;
    const mine = this.current;
    this.paging[index] = true;
    delete this.problems[index];
    try {
      const page = await api.resourcePage(this.serverID, this.uri, index, item.nextOffset);
      if (!mine()) return;
      item.text += page.text;
      item.nextOffset = page.nextOffset;
    } catch (e) {
      if (mine()) this.problems[index] = api.errorText(e);
    } finally {
      if (mine()) delete this.paging[index];
    }
  }

  /** Asks where to save an item and saves it; says where it went. */
  async save(index: number): Promise<void> {
    delete this.problems[index];
    try {
      const path = await api.saveResource(this.serverID, this.uri, index);
      if (path) this.saved[index] = path;
    } catch (e) {
      this.problems[index] = api.errorText(e);
    }
  }
}

/** What is chosen in a server's list: a resource by URI or a template by its URI template. */
export type ResourceChoice = { kind: 'resource'; uri: string } | { kind: 'template'; uriTemplate: string };

/** One template's form: the values typed, the URI they made, and why they could not make one. */
export interface TemplateDraft {
  values: Record<string, string>;
  uri: string;
  problem: string;
}

/** The key of something of one server's: its ID and a URI (or URI template). */
export function resourceKey(serverID: string, uri: string): string {
  return `${serverID}\u0000${uri}`;
}

/** The items whose title, name, URI or description hold every word of filter, in any case, in the server's order. */
export function filterByWords<T extends { name: string; title: string; description: string }>(
  list: T[],
  filter: string,
  address: (x: T) => string,
): T[] {
  const words = filter.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return list;
  return list.filter((x) => {
    const text = `${x.name}\n${x.title}\n${x.description}\n${address(x)}`.toLocaleLowerCase();
    return words.every((w) => text.includes(w));
  });
}

class ResourcesStore {
  /** Each server's resources and templates. */
  lists = new ServerLists<ResourceListView | null>(api.listResources, null, 'mcp.resources.notOffered');
  /** The chosen resource or template per server. */
  chosen = $state<Record<string, ResourceChoice>>({});
  private filters = new ServerFilter(() => tools.serverID);
  /** What is typed in the filter of the server the Tools pane shows; each server keeps its own. */
  get filter(): string {
    return this.filters.value;
  }
  set filter(v: string) {
    this.filters.value = v;
  }
  /** Each template's form, by resourceKey(server, uriTemplate). */
  templates = $state<Record<string, TemplateDraft>>({});
  /** When each subscribed resource last changed (ms since the epoch), by resourceKey. */
  updated = $state<Record<string, number>>({});
  /** Why the latest subscribe or unsubscribe failed, by resourceKey. */
  subscribeProblems = $state<Record<string, string>>({});
  /** The reads on screen, by resourceKey of the URI read. */
  readings = $state.raw<Record<string, ResourceReading>>({});

  /** Listens to Go: lists are read again when they change; updates are noted. */
  start(): () => void {
    const offChanged = api.onResourcesChanged((id) => this.lists.changed(id));
    const offUpdated = api.onResourceUpdated((u) => {
      this.updated[resourceKey(u.serverId, u.uri)] = Date.now();
    });
    return () => {
      offChanged();
      offUpdated();
    };
  }

  /** Forgets everything (for tests). */
  reset(): void {
    this.lists.reset();
    this.chosen = {};
    this.filters.reset();
    this.templates = {};
    this.updated = {};
    this.subscribeProblems = {};
    this.readings = {};
  }

  /** The read of uri on serverID, made (not yet loaded) when there is none. */
  reading(serverID: string, uri: string): ResourceReading {
    const key = resourceKey(serverID, uri);
    let r = this.readings[key];
    if (!r) {
      r = new ResourceReading(serverID, uri);
      this.readings = { ...this.readings, [key]: r };
    }
    return r;
  }

  /** Chooses a resource and reads it, unless it was read before (then it shows as it was). */
  chooseResource(serverID: string, uri: string): ResourceReading {
    this.chosen[serverID] = { kind: 'resource', uri };
    const r = this.reading(serverID, uri);
    if (!r.view && !r.loading) void r.load();
    return r;
  }

  /** Chooses a template: its form shows, with the values typed before. */
  chooseTemplate(serverID: string, uriTemplate: string, variables: string[] = []): TemplateDraft {
    this.chosen[serverID] = { kind: 'template', uriTemplate };
    const key = resourceKey(serverID, uriTemplate);
    const draft = (this.templates[key] ??= { values: {}, uri: '', problem: '' });
    for (const v of variables) draft.values[v] ??= '';
    return draft;
  }

  /** Fills a template with its draft's values and reads the URI they make. */
  async readTemplate(serverID: string, uriTemplate: string): Promise<void> {
    const draft = this.chooseTemplate(serverID, uriTemplate);
    try {
      draft.uri = await api.expandTemplate(uriTemplate, { ...draft.values });
      draft.problem = '';
    } catch (e) {
      draft.problem = api.errorText(e);
      draft.uri = '';
      return;
    }
    await this.reading(serverID, draft.uri).load();
  }

  /** Whether the person subscribed to uri on serverID. */
  subscribed(serverID: string, uri: string): boolean {
    return this.lists.get(serverID)?.value?.subscribed.includes(uri) ?? false;
  }

  /** Subscribes to a resource, or ends the subscription. */
  async toggleSubscription(serverID: string, uri: string): Promise<void> {
    const key = resourceKey(serverID, uri);
    const view = this.lists.get(serverID)?.value;
    if (!view) return;
    const on = !view.subscribed.includes(uri);
    delete this.subscribeProblems[key];
    try {
      if (on) await api.subscribeResource(serverID, uri);
      else await api.unsubscribeResource(serverID, uri);
      const now = this.lists.get(serverID)?.value;
      if (!now) return;
      now.subscribed = on ? [...now.subscribed.filter((u) => u !== uri), uri] : now.subscribed.filter((u) => u !== uri);
      if (!on) delete this.updated[key];
    } catch (e) {
      this.subscribeProblems[key] = api.errorText(e);
    }
  }

  /** Reads a changed resource again: the update is then seen. */
  async readAgain(serverID: string, uri: string): Promise<void> {
    delete this.updated[resourceKey(serverID, uri)];
    await this.reading(serverID, uri).load();
  }
}

export const resources = new ResourcesStore();
