// The api module as the component tests see it: the real helpers (error
// text, normalising) and a vi.fn() for every call to Go. The real Go backend
// is exercised by the end-to-end tests in e2e/.

import { vi } from 'vitest';

export async function mockApi(importOriginal: () => Promise<typeof import('../lib/api')>) {
  const real = await importOriginal();
  return {
    ...real,
    listServers: vi.fn(async () => []),
    validateServer: vi.fn(async () => ({})),
    addServer: vi.fn(),
    updateServer: vi.fn(),
    removeServer: vi.fn(async () => {}),
    setServerEnabled: vi.fn(async () => {}),
    reconnectServer: vi.fn(async () => {}),
    serverLog: vi.fn(async () => ''),
    listTools: vi.fn(async () => []),
    callTool: vi.fn(),
    cancelCall: vi.fn(async () => {}),
    appInfo: vi.fn(),
    onServersChanged: vi.fn(() => () => {}),
    onToolsChanged: vi.fn(() => () => {}),
  };
}
