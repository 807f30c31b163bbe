package store

import (
	"fmt"

	"go.etcd.io/bbolt"
)

// Settings returns the saved settings, or the zero Settings if none were
// ever saved.
func (s *Store) Settings() (Settings, error) {
	return s.settings.get(s, "", bucketSettings, keySettings, decodeSettings)
}

// PutSettings saves set, replacing the saved settings as a whole. It
// returns ErrInvalid when DefaultProviderID is set and no provider has it,
// or when Theme is not one of the themes.
func (s *Store) PutSettings(set Settings) error {
	err := s.update(func(tx *bbolt.Tx) error {
		switch set.Theme {
		case ThemeSystem, ThemeLight, ThemeDark:
		default:
			return fmt.Errorf("%w: the theme %q is none of light, dark or the system's", ErrInvalid, set.Theme)
		}
		if id := set.DefaultProviderID; id != "" && tx.Bucket(bucketProviders).Get([]byte(id)) == nil {
			return fmt.Errorf("%w: the default provider %q does not exist (was it removed?)", ErrInvalid, id)
		}
		return putJSON(tx.Bucket(bucketSettings), keySettings, set)
	})
	if err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	return nil
}

// readSettings reads the saved settings within tx; the zero Settings if none
// were ever saved.
func readSettings(tx *bbolt.Tx) (Settings, error) {
	return decodeSettings(tx.Bucket(bucketSettings).Get(keySettings))
}

// decodeSettings decodes the settings as stored (v); nil is the zero
// Settings.
func decodeSettings(v []byte) (Settings, error) {
	var set Settings
	if v != nil {
		if err := decodeValue(bucketSettings, keySettings, v, &set); err != nil {
			return Settings{}, fmt.Errorf("read settings: %w", err)
		}
	}
	return set, nil
}

// MarkInitialized records that the data file has been set up and reports
// whether this call was the first to do so. It returns true exactly once in
// the life of a data file, whichever process or Store calls it, so first-run
// work (such as adding the demo server) happens once and is not redone after
// the user undoes it.
func (s *Store) MarkInitialized() (first bool, err error) {
	err = s.update(func(tx *bbolt.Tx) error {
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
