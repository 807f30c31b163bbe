package store

import (
	"fmt"

	"go.etcd.io/bbolt"
)

// Settings returns the saved settings, or the zero Settings if none were
// ever saved.
func (s *Store) Settings() (Settings, error) {
	var set Settings
	err := s.db.View(func(tx *bbolt.Tx) error {
		v := tx.Bucket(bucketSettings).Get(keySettings)
		if v == nil {
			return nil
		}
		return decodeValue(bucketSettings, keySettings, v, &set)
	})
	if err != nil {
		return Settings{}, fmt.Errorf("read settings: %w", err)
	}
	return set, nil
}

// PutSettings saves set, replacing the saved settings as a whole.
func (s *Store) PutSettings(set Settings) error {
	err := s.db.Update(func(tx *bbolt.Tx) error {
		return putJSON(tx.Bucket(bucketSettings), keySettings, set)
	})
	if err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	return nil
}

// MarkInitialized records that the data file has been set up and reports
// whether this call was the first to do so. It returns true exactly once in
// the life of a data file, whichever process or Store calls it, so first-run
// work (such as adding the demo server) happens once and is not redone after
// the user undoes it.
func (s *Store) MarkInitialized() (first bool, err error) {
	err = s.db.Update(func(tx *bbolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta.Get(keyInitialized) != nil {
			return nil
		}
		first = true
		return putJSON(meta, keyInitialized, s.now())
	})
	if err != nil {
		return false, fmt.Errorf("mark the data file initialized: %w", err)
	}
	return first, nil
}
