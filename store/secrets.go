package store

import (
	"encoding/json"
	"fmt"

	"go.etcd.io/bbolt"
)

// Secret returns the secret JSON saved for a server (a sign-in token when
// the OS keyring is unavailable), or nil when there is none. The store does
// not read it; the caller owns its format.
func (s *Store) Secret(serverID string) ([]byte, error) {
	var out []byte
	err := s.db.View(func(tx *bbolt.Tx) error {
		if v := tx.Bucket(bucketSecrets).Get([]byte(serverID)); v != nil {
			out = append([]byte(nil), v...)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the sign-in of server %q: %w", serverID, err)
	}
	return out, nil
}

// PutSecret saves a server's secret JSON, replacing the one saved. It
// returns ErrNotFound if no server has the ID, and ErrInvalid if value is not
// JSON.
func (s *Store) PutSecret(serverID string, value []byte) error {
	if !json.Valid(value) {
		return fmt.Errorf("%w: the sign-in to save is not JSON", ErrInvalid)
	}
	return s.db.Update(func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketServers).Get([]byte(serverID)) == nil {
			return fmt.Errorf("server %q: %w", serverID, ErrNotFound)
		}
		return tx.Bucket(bucketSecrets).Put([]byte(serverID), value)
	})
}

// DeleteSecret removes a server's secret; deleting none is not an error.
func (s *Store) DeleteSecret(serverID string) error {
	return s.db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketSecrets).Delete([]byte(serverID))
	})
}
