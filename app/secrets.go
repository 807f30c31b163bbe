package app

import (
	"errors"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/zalando/go-keyring"

	"github.com/gatehouse-app/gatehouse/store"
)

// keyringService is the name Gatehouse's secrets are filed under in the OS
// keyring, one entry per secret (see keyringUser).
const keyringService = "Gatehouse"

// keyringProbeTimeout bounds the start-up check of the keyring: a session
// bus without a secret service may take a while to say so.
const keyringProbeTimeout = 3 * time.Second

// A keyringAPI is an OS keyring, as github.com/zalando/go-keyring's
// functions reach it. Tests replace it.
type keyringAPI interface {
	Get(service, user string) (string, error)
	Set(service, user, secret string) error
	Delete(service, user string) error
}

// osKeyring is the OS keyring.
type osKeyring struct{}

func (osKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (osKeyring) Set(service, user, secret string) error   { return keyring.Set(service, user, secret) }
func (osKeyring) Delete(service, user string) error        { return keyring.Delete(service, user) }

// secretStore keeps Gatehouse's secrets (sign-in tokens, API keys) in the OS
// keyring when one answers, otherwise in the data file, which only this
// user can read (Settings shows which). It never logs a secret, and no
// error it returns contains one.
type secretStore struct {
	st *store.Store
	// keyring is the OS keyring; nil means osKeyring.
	keyring keyringAPI

	once sync.Once
	ok   bool // the keyring works
}

// newSecretStore returns the secrets of st, kept in the OS keyring when it
// works.
func newSecretStore(st *store.Store) *secretStore {
	return &secretStore{st: st, keyring: osKeyring{}}
}

// usesKeyring reports whether the OS keyring works, checked once, when a
// secret is first needed (so that starting Gatehouse or a CLI command never
// wakes a locked keyring), by writing and deleting a probe entry.
func (s *secretStore) usesKeyring() bool {
	s.once.Do(func() {
		done := make(chan error, 1)
		go func() {
			err := s.keyring.Set(keyringService, "gatehouse-probe", "probe")
			if err == nil {
				err = s.keyring.Delete(keyringService, "gatehouse-probe")
			}
			done <- err
		}()
		select {
		case err := <-done:
			s.ok = err == nil
		case <-time.After(keyringProbeTimeout):
		}
	})
	return s.ok
}

// get returns the secret of the given kind (store.SecretSignIn,
// store.SecretAPIKey) saved for the owner with the given ID: from the
// keyring if it is there, else from the data file; "" when none is saved.
func (s *secretStore) get(kind, id string) (string, error) {
	if s.usesKeyring() {
		v, err := s.keyring.Get(keyringService, keyringUser(kind, id))
		switch {
		case err == nil:
			return v, nil
		case !errors.Is(err, keyring.ErrNotFound):
			return "", fmt.Errorf("reading %s from the keyring: %w", secretName(kind), err)
		}
	}
	raw, err := s.st.Secret(kind, id)
	if err != nil {
		return "", err
	}
	return string(raw), nil
}

// put saves a secret: in the keyring when it works, removing any copy from
// the data file, else in the data file. Its owner (the server, the
// provider) must exist in the store, else the error wraps
// store.ErrNotFound.
func (s *secretStore) put(kind, id, value string) error {
	if value == "" {
		return fmt.Errorf("%s to save is empty", secretName(kind))
	}
	// The data file checks this itself; the keyring must not keep a secret
	// nobody will delete.
	var err error
	switch kind {
	case store.SecretSignIn:
		_, err = s.st.Server(id)
	case store.SecretAPIKey:
		_, err = s.st.Provider(id)
	}
	if err != nil {
		return fmt.Errorf("saving %s: %w", secretName(kind), err)
	}
	if s.usesKeyring() {
		if err := s.keyring.Set(keyringService, keyringUser(kind, id), value); err == nil {
			return s.st.DeleteSecret(kind, id) // none left behind in the file
		}
		// A keyring that refuses this value (too big, locked again) leaves
		// the data file.
	}
	return s.st.PutSecret(kind, id, []byte(value))
}

// delete removes a secret from the keyring and the data file; deleting none
// is not an error.
func (s *secretStore) delete(kind, id string) error {
	if s.usesKeyring() {
		err := s.keyring.Delete(keyringService, keyringUser(kind, id))
		if err != nil && !errors.Is(err, keyring.ErrNotFound) {
			return fmt.Errorf("deleting %s from the keyring: %w", secretName(kind), err)
		}
	}
	return s.st.DeleteSecret(kind, id)
}

// keyringUser is the keyring entry of a secret. Sign-in tokens keep the
// name they were first saved under, the bare server ID, so tokens saved by
// earlier versions are found; other kinds are "<kind>/<id>".
func keyringUser(kind, id string) string {
	if kind == store.SecretSignIn {
		return id
	}
	return kind + "/" + id
}

// secretName names a kind of secret in a sentence.
func secretName(kind string) string {
	if kind == store.SecretAPIKey {
		return "the API key"
	}
	return "the sign-in"
}

// maskSecret returns the form of a secret the window shows once it is
// saved, never the whole of it: a long key keeps its first 3 characters
// (the vendor's prefix, such as "sk-") and last 4, "sk-…a1b2"; a shorter
// one only its last 2, "…b2"; one under 8 characters none, "…". An empty
// secret gives "".
func maskSecret(secret string) string {
	n := utf8.RuneCountInString(secret)
	runes := []rune(secret)
	switch {
	case n == 0:
		return ""
	case n < 8:
		return "…"
	case n < 20:
		return "…" + string(runes[n-2:])
	}
	return string(runes[:3]) + "…" + string(runes[n-4:])
}

// apiKeyHint returns the masked form of the provider's saved API key (see
// maskSecret), or "" when none is saved.
func (s *secretStore) apiKeyHint(providerID string) (string, error) {
	key, err := s.get(store.SecretAPIKey, providerID)
	if err != nil {
		return "", err
	}
	return maskSecret(key), nil
}
