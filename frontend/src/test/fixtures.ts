// Small builders for the Go views the component tests feed to the UI.

import type { ElicitationView, FieldView, ServerView, StatusView, ToolResultView, ToolView } from '../lib/api';

export function status(over: Partial<StatusView> = {}): StatusView {
  return {
    state: 'connected',
    message: '',
    transport: 'stdio',
    protocolVersion: '2025-06-18',
    serverName: 'demo',
    serverVersion: '1.0.0',
    capabilities: ['tools'],
    since: '2026-11-22T10:00:00Z',
    nextRetry: '',
    counts: { tools: 2, resources: 0, prompts: 0 },
    ...over,
  };
}

export function server(id: string, name: string, st: Partial<StatusView> = {}, enabled = true): ServerView {
  return {
    id,
    where: `node ${name}.js`,
    input: {
      name,
      enabled,
      transport: 'stdio',
      command: 'node',
      args: [`${name}.js`],
      env: {},
      dir: '',
      inheritEnv: false,
      url: '',
      headers: {},
      noUrlMode: false,
      clientId: '',
      clientSecret: '',
      clientMetadataUrl: '',
    },
    status: status(st),
  };
}

export function field(name: string, kind: string, over: Partial<FieldView> = {}): FieldView {
  return { name, label: name, description: '', kind, required: false, sensitive: false, ...over };
}

export function tool(name: string, over: Partial<ToolView> = {}): ToolView {
  return {
    name,
    title: name,
    description: '',
    annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
    form: { fields: [], complete: true, reason: '' },
    inputSchema: '{\n  "type": "object"\n}',
    hasOutputSchema: false,
    ...over,
  };
}

export function result(over: Partial<ToolResultView> = {}): ToolResultView {
  return { isError: false, content: [], structured: '', structuredWarning: '', durationMs: 12, ...over };
}

export function elicitation(over: Partial<ElicitationView> = {}): ElicitationView {
  return {
    id: 'req-1',
    serverName: 'Demo server',
    serverId: 's1',
    where: '/usr/bin/gatehouse demo-server',
    selfName: 'gatehouse-demo',
    selfVersion: '1.0.0',
    mode: 'form',
    message: 'Please register.',
    fields: [],
    sensitive: false,
    receivedAt: '2026-11-22T10:00:00Z',
    deadline: '2026-11-22T10:10:00Z',
    ...over,
  };
}
