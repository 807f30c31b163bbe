// An app instance as Go's AppsService.Open returns it, for the tests of the
// MCP Apps frame.

import type { AppView } from '../lib/api';

export function appView(over: Partial<AppView> = {}): AppView {
  return {
    instanceId: 'abc123',
    url: 'gatehouse-app://abc123/index.html',
    origin: 'gatehouse-app://abc123',
    serverId: 's1',
    serverName: 'Budget',
    tool: 'get-budget',
    toolTitle: 'Get budget',
    resourceUri: 'ui://budget/app.html',
    prefersBorder: true,
    permissions: [],
    allowed: [],
    connectDomains: [],
    resourceDomains: [],
    frameDomains: [],
    dropped: [],
    toolInput: { year: 2026 },
    toolResult: { content: [{ type: 'text', text: 'ok' }] },
    limits: { minHeight: 80, maxHeight: 800, maxMessageBytes: 1000, messagesPerSecond: 5, maxOpen: 3 },
    ...over,
  };
}
