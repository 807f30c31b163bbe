// Small builders for the Go views the component tests feed to the UI.

import type {
  Field,
  Form,
  JsonNode,
  Message,
  PresetView,
  ProviderList,
  ProviderView,
  QuestionView,
  ServerList,
  ServerView,
  StatusView,
  ToolResultView,
  ToolView,
} from '../lib/api';

export function status(over: Partial<StatusView> = {}): StatusView {
  return {
    state: 'connected',
    message: { key: '', args: {}, text: '' },
    transport: 'stdio',
    protocolVersion: '2025-06-18',
    serverName: 'demo',
    serverVersion: '1.0.0',
    capabilities: ['tools'],
    since: '2026-11-22T10:00:00Z',
    nextRetry: '',
    counts: { tools: 2, resources: 0, prompts: 0 },
    stderr: [],
    ...over,
  };
}

export function server(id: string, name: string, st: Partial<StatusView> = {}, enabled = true): ServerView {
  return {
    id,
    where: `node ${name}.js`,
    demo: false,
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
      roots: [],
    },
    logLevel: '',
    status: status(st),
  };
}

/** A message as Go sends it; the tests only look at its text. */
export function msg(text: string, key = 'test.message'): Message {
  return { key, args: {}, text };
}

export function field(name: string, kind: string, over: Partial<Field> = {}): Field {
  return { name, label: name, description: '', kind, required: false, sensitive: false, options: [], hints: [], ...over };
}

/** A tool of a test's list, with the form and input schema Go would give for it (api.toolForm). */
export type TestTool = ToolView & { form: Form; inputSchema: string };

export function tool(name: string, over: Partial<TestTool> = {}): TestTool {
  return {
    name,
    title: name,
    description: '',
    annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
    form: { fields: [], complete: true, secretFields: [] },
    inputSchema: '{\n  "type": "object"\n}',
    schemaId: 'schema-1',
    hasOutputSchema: false,
    needsTask: false,
    ...over,
  };
}

export function result(over: Partial<ToolResultView> = {}): ToolResultView {
  return { isError: false, content: [], structured: '', durationMs: 12, argumentErrors: {}, ...over };
}

/** Overrides of a question, with the server's and form's parts flattened for brevity. */
export type QuestionOverrides = Partial<Omit<QuestionView, 'server' | 'form'>> & {
  serverName?: string;
  serverId?: string;
  where?: string;
  selfName?: string;
  selfVersion?: string;
  fields?: Field[];
  secretFields?: string[];
};

export function question(over: QuestionOverrides = {}): QuestionView {
  const { serverName, serverId, where, selfName, selfVersion, fields, secretFields, ...rest } = over;
  return {
    id: 'req-1',
    kind: 'form',
    server: {
      id: serverId ?? 's1',
      name: serverName ?? 'Demo server',
      where: where ?? '/usr/bin/gatehouse demo-server',
      selfName: selfName ?? 'gatehouse-demo',
      selfVersion: selfVersion ?? '1.0.0',
    },
    message: 'Please register.',
    form: { fields: fields ?? [], complete: true, secretFields: secretFields ?? [] },
    opensPage: rest.kind === 'url' || rest.kind === 'signin' || rest.kind === 'app-link',
    receivedAt: '2026-11-22T10:00:00Z',
    deadline: '2026-11-22T10:10:00Z',
    ...rest,
  };
}

/** Some of the presets Go offers, in its order: local servers first. */
export function presets(): PresetView[] {
  return [
    { id: 'ollama', name: 'Ollama', kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', needsKey: false, local: true, quirks: {} },
    { id: 'lmstudio', name: 'LM Studio', kind: 'openai', baseUrl: 'http://127.0.0.1:1234/v1', needsKey: false, local: true, quirks: {} },
    { id: 'deepseek', name: 'DeepSeek', kind: 'openai', baseUrl: 'https://api.deepseek.com', needsKey: true, local: false, quirks: { echoReasoning: true } },
    { id: 'anthropic', name: 'Anthropic', kind: 'anthropic', baseUrl: 'https://api.anthropic.com', needsKey: true, local: false, quirks: { images: true } },
  ];
}

/** A configured provider as Go lists it: the key only as a masked hint. */
export function providerView(id: string, name: string, over: Partial<ProviderView> = {}): ProviderView {
  return {
    id,
    name,
    kind: 'openai',
    preset: '',
    baseUrl: 'http://127.0.0.1:11434/v1',
    model: 'qwen3:8b',
    keyHint: '',
    isDefault: false,
    quirks: {},
    ...over,
  };
}

/**
 * The tree Go builds for a plain JSON value (visible.JSON), for tests whose
 * values hold no hidden character and no number JavaScript cannot keep:
 * everything open, strings as one segment. Trees with hidden characters come
 * from Go itself (visible/testdata).
 */
export function jsonNode(value: unknown): JsonNode {
  if (Array.isArray(value)) return { kind: 'array', children: value.map(jsonNode), open: true };
  if (value !== null && typeof value === 'object') {
    return {
      kind: 'object',
      open: true,
      children: Object.entries(value).map(([k, v]) => ({ ...jsonNode(v), key: k ? [{ text: k }] : undefined })),
    };
  }
  if (typeof value === 'string') return { kind: 'string', segments: value ? [{ text: value }] : undefined };
  if (typeof value === 'number') return { kind: 'number', text: String(value) };
  if (typeof value === 'boolean') return { kind: 'boolean', text: String(value) };
  return { kind: 'null', text: 'null' };
}

// Go numbers each list it reads; each list made here is newer than the last.
let version = 0;

/** A server list as Go sends it, newer than any made before. */
export function serverList(servers: ServerView[]): ServerList {
  return { version: ++version, servers };
}

/** A provider list as Go sends it, newer than any made before. */
export function providerList(providers: ProviderView[]): ProviderList {
  return { version: ++version, providers };
}
