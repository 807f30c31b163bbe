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
    signIn: vi.fn(async () => {}),
    signOut: vi.fn(async () => {}),
    serverLog: vi.fn(async () => ''),
    listTools: vi.fn(async () => []),
    callTool: vi.fn(),
    checkArguments: vi.fn(async () => ({ arguments: {}, errors: {} })),
    cancelCall: vi.fn(async () => {}),
    appInfo: vi.fn(),
    getSettings: vi.fn(),
    saveSettings: vi.fn(async () => {}),
    questionsSnapshot: vi.fn(async () => ({ version: 0, current: null, waiting: [], opened: [], notices: [] })),
    validateAnswer: vi.fn(async () => ({})),
    submitAnswer: vi.fn(async () => ({ sent: true, errors: {} })),
    declineQuestion: vi.fn(async () => {}),
    cancelQuestion: vi.fn(async () => {}),
    refuseQuestion: vi.fn(async () => {}),
    dismissNotice: vi.fn(async () => {}),
    muteServer: vi.fn(async () => {}),
    serverPolicy: vi.fn(async () => ({ mode: 'ask', mutedUntil: '' })),
    setServerPolicy: vi.fn(async () => {}),
    history: vi.fn(async () => []),
    clearHistory: vi.fn(async () => {}),
    notifyUnfocused: vi.fn(async () => {}),
    onQuestions: vi.fn(() => () => {}),
    openPage: vi.fn(async () => {}),
    allowToolCall: vi.fn(async () => {}),
    reviewSampling: vi.fn(async () => {}),
    acceptModelAnswer: vi.fn(async () => {}),
    openResultLink: vi.fn(async () => {}),
    openAgain: vi.fn(async () => {}),
    finishedPage: vi.fn(async () => {}),
    stopWaiting: vi.fn(async () => {}),
    onServersChanged: vi.fn(() => () => {}),
    onToolsChanged: vi.fn(() => () => {}),
  };
}
