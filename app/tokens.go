package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// keyringService is the name Gatehouse's tokens are filed under in the OS
// keyring, one entry per server ID.
const keyringService = "Gatehouse"

// keyringProbeTimeout bounds the start-up check of the keyring: a session
// bus without a secret service may take a while to say so.
const keyringProbeTimeout = 3 * time.Second

// tokenStore implements mcp.TokenStore: in the OS keyring when one answers,
// otherwise in the data file (and Settings says so). A token is returned only
// for the resource (the server URL) it was issued for. Tokens are never
// logged.
type tokenStore struct {
	st *store.Store

	once sync.Once
	ok   bool // the keyring works
}

// usesKeyring reports whether the OS keyring works, checked once, when a
// token is first needed (so that starting Gatehouse or a CLI command never
// wakes a locked keyring), by writing and deleting a probe entry.
func (t *tokenStore) usesKeyring() bool {
	t.once.Do(func() {
		done := make(chan error, 1)
		go func() {
			err := keyring.Set(keyringService, "gatehouse-probe", "probe")
			if err == nil {
				err = keyring.Delete(keyringService, "gatehouse-probe")
			}
			done <- err
		}()
		select {
		case err := <-done:
			t.ok = err == nil
		case <-time.After(keyringProbeTimeout):
		}
	})
	return t.ok
}

// LoadToken implements mcp.TokenStore.
func (t *tokenStore) LoadToken(serverID, resource string) (*mcp.SavedToken, error) {
	var raw []byte
	if t.usesKeyring() {
		s, err := keyring.Get(keyringService, serverID)
		switch {
		case err == nil:
			raw = []byte(s)
		case !errors.Is(err, keyring.ErrNotFound):
			return nil, fmt.Errorf("reading the sign-in from the keyring: %w", err)
		}
	}
	if raw == nil {
		var err error
		if raw, err = t.st.Secret(serverID); err != nil || raw == nil {
			return nil, err
		}
	}
	var tok mcp.SavedToken
	if err := json.Unmarshal(raw, &tok); err != nil {
		return nil, errors.New("the saved sign-in cannot be read; sign in again")
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
	if t.usesKeyring() {
		if err := keyring.Set(keyringService, serverID, string(raw)); err == nil {
			return t.st.DeleteSecret(serverID) // none left behind in the file
		}
	}
	return t.st.PutSecret(serverID, raw)
}

// DeleteToken implements mcp.TokenStore.
func (t *tokenStore) DeleteToken(serverID string) error {
	if t.usesKeyring() {
		if err := keyring.Delete(keyringService, serverID); err != nil && !errors.Is(err, keyring.ErrNotFound) {
			return fmt.Errorf("deleting the sign-in from the keyring: %w", err)
		}
	}
	return t.st.DeleteSecret(serverID)
}
