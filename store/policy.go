package store

import (
	"fmt"

	"go.etcd.io/bbolt"
)

// Policy returns the elicitation policy saved for the server, or the zero
// Policy (PolicyAsk) when none is saved, the server is unknown, or its mute
// has ended. A returned PolicyMute was in force when read; use
// Policy.Effective to ask again later.
func (s *Store) Policy(serverID string) (Policy, error) {
	var p Policy
	err := s.db.View(func(tx *bbolt.Tx) error {
		v := tx.Bucket(bucketPolicies).Get([]byte(serverID))
		if v == nil {
			return nil
		}
		return decodeValue(bucketPolicies, []byte(serverID), v, &p)
	})
	if err != nil {
		return Policy{}, fmt.Errorf("read the policy of server %q: %w", serverID, err)
	}
	if p.Effective(s.now()) == PolicyAsk {
		return Policy{}, nil
	}
	return p, nil
}

// PutPolicy saves the server's elicitation policy, replacing the one saved.
// It returns ErrNotFound if no server has the ID, and ErrInvalid for an
// unknown mode, a PolicyMute without MutedUntil, or a MutedUntil on another
// mode. Saving PolicyAsk, or a mute that has already ended, removes the
// saved policy.
func (s *Store) PutPolicy(serverID string, p Policy) error {
	if err := validPolicy(p); err != nil {
		return err
	}
	return s.update(func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketServers).Get([]byte(serverID)) == nil {
			return fmt.Errorf("server %q: %w", serverID, ErrNotFound)
		}
		b := tx.Bucket(bucketPolicies)
		if p.Effective(s.now()) == PolicyAsk {
			return b.Delete([]byte(serverID))
		}
		if err := putJSON(b, []byte(serverID), p); err != nil {
			return fmt.Errorf("save the policy of server %q: %w", serverID, err)
		}
		return nil
	})
}

// validPolicy refuses a policy PutPolicy must not store.
func validPolicy(p Policy) error {
	switch p.Mode {
	case PolicyAsk, PolicyDecline:
		if !p.MutedUntil.IsZero() {
			return fmt.Errorf("%w: only a mute has an end time", ErrInvalid)
		}
	case PolicyMute:
		if p.MutedUntil.IsZero() {
			return fmt.Errorf("%w: a mute needs an end time", ErrInvalid)
		}
	default:
		return fmt.Errorf("%w: unknown policy mode %q", ErrInvalid, p.Mode)
	}
	return nil
}
