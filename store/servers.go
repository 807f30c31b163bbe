package store

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.etcd.io/bbolt"
)

// Servers returns every server, oldest first (by CreatedAt, then Name, then
// ID). The slice is empty, not nil, when there are none.
func (s *Store) Servers() ([]Server, error) {
	out := []Server{}
	err := s.db.View(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketServers).ForEach(func(k, v []byte) error {
			srv, err := decodeServer(k, v)
			out = append(out, srv)
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read servers: %w", err)
	}
	slices.SortFunc(out, func(a, b Server) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// Server returns the server with the given ID, or ErrNotFound.
func (s *Store) Server(id string) (Server, error) {
	var srv Server
	err := s.db.View(func(tx *bbolt.Tx) (err error) {
		srv, err = getServer(tx.Bucket(bucketServers), id)
		return err
	})
	return srv, err
}

// ServerByName returns the server whose name matches name, ignoring case and
// surrounding spaces, or ErrNotFound.
func (s *Store) ServerByName(name string) (Server, error) {
	var srv Server
	err := s.db.View(func(tx *bbolt.Tx) error {
		found, ok, err := findByName(tx.Bucket(bucketServers), name, "")
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("server named %q: %w", strings.TrimSpace(name), ErrNotFound)
		}
		srv = found
		return nil
	})
	return srv, err
}

// PutServer stores srv and returns the stored record.
//
// With an empty ID it inserts a new server under a fresh random ID and sets
// CreatedAt. Otherwise it replaces the server with that ID, which must exist
// (else ErrNotFound), keeping its CreatedAt. Either way it trims Name, sets
// UpdatedAt, and refuses an empty name (ErrInvalid) or one another server
// has, ignoring case (ErrDuplicateName).
func (s *Store) PutServer(srv Server) (Server, error) {
	srv.Name = strings.TrimSpace(srv.Name)
	if srv.Name == "" {
		return Server{}, fmt.Errorf("%w: a server needs a name", ErrInvalid)
	}
	var stored Server
	err := s.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketServers)
		now := s.now()
		if srv.ID == "" {
			srv.ID = newID(b)
			srv.CreatedAt = now
		} else {
			old, err := getServer(b, srv.ID)
			if err != nil {
				return err
			}
			srv.CreatedAt = old.CreatedAt
		}
		srv.UpdatedAt = now

		other, taken, err := findByName(b, srv.Name, srv.ID)
		if err != nil {
			return err
		}
		if taken {
			return fmt.Errorf("%w: a server named %q already exists", ErrDuplicateName, other.Name)
		}

		data, err := json.Marshal(srv)
		if err != nil {
			return fmt.Errorf("encode server: %w", err)
		}
		// Return what a later read will see, not the caller's value.
		if err := json.Unmarshal(data, &stored); err != nil {
			return fmt.Errorf("encode server: %w", err)
		}
		return b.Put([]byte(srv.ID), data)
	})
	if err != nil {
		return Server{}, err
	}
	return stored, nil
}

// DeleteServer removes the server with the given ID, its elicitation and
// tool-call policies and its sign-in saved in the data file, or returns
// ErrNotFound. Its history stays, and so do conversations that offered its
// tools. Its ID is not given to any later server.
func (s *Store) DeleteServer(id string) error {
	return s.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketServers)
		if b.Get([]byte(id)) == nil {
			return fmt.Errorf("server %q: %w", id, ErrNotFound)
		}
		if err := tx.Bucket(bucketPolicies).Delete([]byte(id)); err != nil {
			return fmt.Errorf("delete the policy of server %q: %w", id, err)
		}
		if err := tx.Bucket(bucketToolPolicies).Delete([]byte(id)); err != nil {
			return fmt.Errorf("delete the tool-call policy of server %q: %w", id, err)
		}
		if err := deleteSecret(tx, SecretSignIn, id); err != nil {
			return err
		}
		if err := b.Delete([]byte(id)); err != nil {
			return fmt.Errorf("delete server %q: %w", id, err)
		}
		return nil
	})
}

// getServer reads the server stored under id.
func getServer(b *bbolt.Bucket, id string) (Server, error) {
	v := b.Get([]byte(id))
	if v == nil {
		return Server{}, fmt.Errorf("server %q: %w", id, ErrNotFound)
	}
	return decodeServer([]byte(id), v)
}

// findByName returns the server other than exceptID whose name equals name,
// ignoring case and surrounding spaces.
func findByName(b *bbolt.Bucket, name, exceptID string) (Server, bool, error) {
	return findNamed(b, name, exceptID, decodeServer, func(srv Server) string { return srv.Name })
}

// findNamed returns the record of b other than exceptID whose name (as
// nameOf reads it) equals name, ignoring case and surrounding spaces.
func findNamed[T any](b *bbolt.Bucket, name, exceptID string, decode func(k, v []byte) (T, error), nameOf func(T) string) (T, bool, error) {
	var zero T
	name = strings.TrimSpace(name)
	if name == "" {
		return zero, false, nil
	}
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if string(k) == exceptID {
			continue
		}
		rec, err := decode(k, v)
		if err != nil {
			return zero, false, err
		}
		if strings.EqualFold(strings.TrimSpace(nameOf(rec)), name) {
			return rec, true, nil
		}
	}
	return zero, false, nil
}

// decodeServer decodes the record stored under key k.
func decodeServer(k, v []byte) (Server, error) {
	var srv Server
	err := decodeValue(bucketServers, k, v, &srv)
	return srv, err
}

// newID returns a random ID not yet used in b. IDs are 64 random bits, so a
// deleted server's ID is, in practice, never seen again.
func newID(b *bbolt.Bucket) string {
	var raw [8]byte
	for {
		_, _ = rand.Read(raw[:]) // never fails; see crypto/rand.Read
		id := hex.EncodeToString(raw[:])
		if b.Get([]byte(id)) == nil {
			return id
		}
	}
}
