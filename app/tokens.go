package app

import (
	"encoding/json"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// tokenStore implements mcp.TokenStore over the app's secrets (the OS
// keyring, or the data file). A token is returned only for the resource
// (the server URL) it was issued for. Tokens are never logged.
type tokenStore struct {
	secrets *secretStore
}

// LoadToken implements mcp.TokenStore.
func (t *tokenStore) LoadToken(serverID, resource string) (*mcp.SavedToken, error) {
	raw, err := t.secrets.get(store.SecretSignIn, serverID)
	if err != nil || raw == "" {
		return nil, err
	}
	var tok mcp.SavedToken
	if err := json.Unmarshal([]byte(raw), &tok); err != nil {
		return nil, i18n.Err("signin.error.unreadable")
	}
	if tok.Resource != resource {
		return nil, nil // issued for another URL: never sent to this one
	}
	return &tok, nil
}

// SaveToken implements mcp.TokenStore.
func (t *tokenStore) SaveToken(serverID string, tok *mcp.SavedToken) error {
	raw, err := json.Marshal(tok)
	if err != nil {
		return err
	}
	return t.secrets.put(store.SecretSignIn, serverID, string(raw))
}

// DeleteToken implements mcp.TokenStore.
func (t *tokenStore) DeleteToken(serverID string) error {
	return t.secrets.delete(store.SecretSignIn, serverID)
}
