package store

import (
	"fmt"

	"go.etcd.io/bbolt"
)

// secretOwners maps each secret kind to the bucket its owner must be in.
var secretOwners = map[string][]byte{
	SecretSignIn: bucketServers,
	SecretAPIKey: bucketProviders,
}

// secretNames are the secret kinds as the person reads them in errors.
var secretNames = map[string]string{
	SecretSignIn: "the sign-in of server",
	SecretAPIKey: "the API key of provider",
}

// Secret returns the secret of the given kind (SecretSignIn, SecretAPIKey)
// saved for the owner with the given ID, or nil when there is none. The
// store keeps secrets here only when the OS keyring is unavailable; it does
// not read them, and the caller owns their format. No error carries a
// secret's value.
func (s *Store) Secret(kind, id string) ([]byte, error) {
	if _, ok := secretOwners[kind]; !ok {
		return nil, fmt.Errorf("%w: unknown kind of secret %q", ErrInvalid, kind)
	}
	var out []byte
	err := s.db.View(func(tx *bbolt.Tx) error {
		if v := tx.Bucket(bucketSecrets).Get(secretKey(kind, id)); v != nil {
			out = append([]byte(nil), v...)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s %q: %w", secretNames[kind], id, err)
	}
	return out, nil
}

// PutSecret saves the secret of the given kind for an owner, replacing the
// one saved. It returns ErrNotFound if the owner (a server for
// SecretSignIn, a provider for SecretAPIKey) does not exist, and ErrInvalid
// for an unknown kind or an empty value.
func (s *Store) PutSecret(kind, id string, value []byte) error {
	owners, ok := secretOwners[kind]
	if !ok {
		return fmt.Errorf("%w: unknown kind of secret %q", ErrInvalid, kind)
	}
	if len(value) == 0 {
		return fmt.Errorf("%w: %s %q to save is empty", ErrInvalid, secretNames[kind], id)
	}
	return s.update(func(tx *bbolt.Tx) error {
		if id == "" || tx.Bucket(owners).Get([]byte(id)) == nil {
			return fmt.Errorf("save %s %q: %w", secretNames[kind], id, ErrNotFound)
		}
		if err := tx.Bucket(bucketSecrets).Put(secretKey(kind, id), value); err != nil {
			return fmt.Errorf("save %s %q: %w", secretNames[kind], id, err)
		}
		return nil
	})
}

// DeleteSecret removes the secret of the given kind saved for an owner;
// deleting none is not an error.
func (s *Store) DeleteSecret(kind, id string) error {
	if _, ok := secretOwners[kind]; !ok {
		return fmt.Errorf("%w: unknown kind of secret %q", ErrInvalid, kind)
	}
	return s.update(func(tx *bbolt.Tx) error {
		return deleteSecret(tx, kind, id)
	})
}

// deleteSecret removes a secret within tx.
func deleteSecret(tx *bbolt.Tx, kind, id string) error {
	if err := tx.Bucket(bucketSecrets).Delete(secretKey(kind, id)); err != nil {
		return fmt.Errorf("delete %s %q: %w", secretNames[kind], id, err)
	}
	return nil
}

// secretKey is where a secret is kept in bucketSecrets: its kind, a slash,
// and its owner's ID. IDs made by newID are hex, so the first slash ends the
// kind.
func secretKey(kind, id string) []byte {
	return []byte(kind + "/" + id)
}
