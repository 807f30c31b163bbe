package store

import (
	"encoding/json"
	"fmt"

	"go.etcd.io/bbolt"
)

// The file's layout. Every value is JSON.
var (
	bucketMeta     = []byte("meta")     // keyVersion, keyInitialized
	bucketServers  = []byte("servers")  // Server.ID → Server
	bucketSettings = []byte("settings") // keySettings → Settings
	bucketPolicies = []byte("policies") // Server.ID → Policy; absent means PolicyAsk
	bucketHistory  = []byte("history")  // HistoryEntry.ID, 8 bytes big-endian → HistoryEntry
	// bucketSecrets holds secrets when the OS keyring is not available:
	// "<kind>/<owner ID>" (see secretKey) → the caller's bytes, opaque to the
	// store. Before version 4 it held only sign-in tokens, keyed by
	// Server.ID.
	bucketSecrets = []byte("secrets")
	// bucketProviders holds the model providers: Provider.ID → Provider.
	bucketProviders = []byte("providers")
	// bucketToolPolicies holds tool-call policies: Server.ID → ToolPolicy;
	// absent means the zero ToolPolicy.
	bucketToolPolicies = []byte("toolpolicies")
	// bucketConversations holds the conversations: Conversation.ID →
	// Conversation.
	bucketConversations = []byte("conversations")
	// bucketRecent indexes the conversations by UpdatedAt, so the latest
	// page is read without decoding the others: recentKey (8 bytes
	// big-endian UnixNano, then the ID) → nothing.
	bucketRecent = []byte("recent")
	// bucketMessages holds one nested bucket per conversation, named by
	// Conversation.ID: Message.Seq, 8 bytes big-endian → Message.
	//
	// A nested bucket per conversation, rather than one flat bucket keyed by
	// conversation and seq: deleting a conversation is one DeleteBucket
	// however long it was; each conversation counts its own Seq with the
	// bucket's sequence; and a conversation's messages sit together, so
	// reading one conversation of 1,000 messages touches only its pages
	// whatever the number of others. bbolt stores a small nested bucket
	// inline in its parent's page, so 10,000 short conversations do not
	// cost 10,000 pages.
	bucketMessages = []byte("messages")
	// bucketClients holds the other apps that used the gateway:
	// ClientApp.ID → ClientApp.
	bucketClients = []byte("clients")

	keyVersion     = []byte("version")     // int: len(migrations) the file has had applied
	keyInitialized = []byte("initialized") // time.Time of the first MarkInitialized
	keySettings    = []byte("settings")
)

// migrations[n] upgrades a file from schema version n to n+1; the file's
// version is the number of steps it has had. Open runs the missing steps and
// records the new version in one transaction, so a file is at one version or
// the next, never between. Append steps; never change a released one.
//
// Version 0 is a file without a recorded version: a new file, or one from
// before versions were recorded.
var migrations = []func(tx *bbolt.Tx) error{
	// 0 → 1: the initial layout.
	func(tx *bbolt.Tx) error {
		for _, name := range [][]byte{bucketServers, bucketSettings} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		return nil
	},
	// 1 → 2: elicitation policies and history.
	func(tx *bbolt.Tx) error {
		for _, name := range [][]byte{bucketPolicies, bucketHistory} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		return nil
	},
	// 2 → 3: sign-in tokens kept in the file when no keyring is available.
	func(tx *bbolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(bucketSecrets); err != nil {
			return fmt.Errorf("create bucket %s: %w", bucketSecrets, err)
		}
		return nil
	},
	// 3 → 4: the chat: model providers, conversations and their messages,
	// tool-call policies; and the secrets bucket keeps API keys beside
	// sign-in tokens, so each key names its kind: a token saved under
	// Server.ID moves to "signin/" + Server.ID.
	func(tx *bbolt.Tx) error {
		for _, name := range [][]byte{bucketProviders, bucketToolPolicies, bucketConversations, bucketRecent, bucketMessages} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		secrets := tx.Bucket(bucketSecrets)
		type record struct{ k, v []byte }
		var old []record
		err := secrets.ForEach(func(k, v []byte) error {
			if v == nil {
				return fmt.Errorf("%s/%s: unexpected nested bucket", bucketSecrets, k)
			}
			old = append(old, record{append([]byte(nil), k...), append([]byte(nil), v...)})
			return nil
		})
		if err != nil {
			return err
		}
		for _, r := range old {
			if err := secrets.Delete(r.k); err != nil {
				return fmt.Errorf("move the sign-in of server %q: %w", r.k, err)
			}
			if err := secrets.Put(append([]byte("signin/"), r.k...), r.v); err != nil {
				return fmt.Errorf("move the sign-in of server %q: %w", r.k, err)
			}
		}
		return nil
	},
	// 4 → 5: the other apps that use the person's servers through the
	// gateway (issue 25).
	func(tx *bbolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(bucketClients); err != nil {
			return fmt.Errorf("create bucket %s: %w", bucketClients, err)
		}
		return nil
	},
}

// schemaVersion is the version this build writes.
func schemaVersion() int { return len(migrations) }

// readVersion returns the file's schema version, 0 when none is recorded.
func readVersion(tx *bbolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return 0, nil
	}
	raw := meta.Get(keyVersion)
	if raw == nil {
		return 0, nil
	}
	var v int
	if err := json.Unmarshal(raw, &v); err != nil || v < 0 {
		return 0, fmt.Errorf("unreadable schema version %q", raw)
	}
	return v, nil
}

// newerError reports a file whose version this build does not know.
func newerError(path string, version int) error {
	return &fileError{
		msg: fmt.Sprintf("the data file %s was written by a newer version of Gatehouse "+
			"(data version %d, this version reads up to %d) and was left untouched; update Gatehouse to use it",
			path, version, schemaVersion()),
		errs: []error{ErrNewerVersion},
	}
}

// upgrade brings an open file to schemaVersion. A file already there is not
// written to.
func upgrade(db *bbolt.DB, path string) error {
	var version int
	err := db.View(func(tx *bbolt.Tx) (err error) {
		version, err = readVersion(tx)
		return err
	})
	if err != nil {
		return corruptError(path, err)
	}
	switch {
	case version == schemaVersion():
		return nil
	case version > schemaVersion():
		return newerError(path, version)
	}
	return db.Update(func(tx *bbolt.Tx) error {
		// Read again: this is the transaction that counts.
		version, err := readVersion(tx)
		if err != nil {
			return corruptError(path, err)
		}
		if version > schemaVersion() {
			return newerError(path, version)
		}
		meta, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return fmt.Errorf("upgrade the data file: %w", err)
		}
		for ; version < schemaVersion(); version++ {
			if err := migrations[version](tx); err != nil {
				return fmt.Errorf("upgrade the data file %s from version %d to %d (left unchanged): %w",
					path, version, version+1, err)
			}
		}
		return putJSON(meta, keyVersion, version)
	})
}

// putJSON stores v encoded as JSON under key.
func putJSON(b *bbolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", key, err)
	}
	return b.Put(key, data)
}
