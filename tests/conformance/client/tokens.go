package main

import (
	"sync"

	"github.com/gatehouse-app/gatehouse/mcp"
)

// memTokens is the conformance client's TokenStore: in memory, since the
// suite starts a fresh client for every scenario and nothing may carry over
// between runs. Like the app's stores, it hands a token back only for the
// server and resource (the MCP server URL) it was saved for.
type memTokens struct {
	mu     sync.Mutex
	tokens map[string]mcp.SavedToken
}

var _ mcp.TokenStore = (*memTokens)(nil)

func newMemTokens() *memTokens { return &memTokens{tokens: map[string]mcp.SavedToken{}} }

func (m *memTokens) LoadToken(serverID, resource string) (*mcp.SavedToken, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tokens[serverID]
	if !ok || t.Resource != resource {
		return nil, nil
	}
	return &t, nil
}

func (m *memTokens) SaveToken(serverID string, tok *mcp.SavedToken) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tokens[serverID] = *tok
	return nil
}

func (m *memTokens) DeleteToken(serverID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.tokens, serverID)
	return nil
}
