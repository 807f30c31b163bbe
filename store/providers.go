package store

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"go.etcd.io/bbolt"
)

// Providers returns every model provider, oldest first (by CreatedAt, then
// Name, then ID). The slice is empty, not nil, when there are none.
func (s *Store) Providers() ([]Provider, error) {
	out := []Provider{}
	err := s.db.View(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketProviders).ForEach(func(k, v []byte) error {
			p, err := decodeProvider(k, v)
			out = append(out, p)
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read providers: %w", err)
	}
	slices.SortFunc(out, func(a, b Provider) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// Provider returns the provider with the given ID, or ErrNotFound.
func (s *Store) Provider(id string) (Provider, error) {
	var p Provider
	err := s.db.View(func(tx *bbolt.Tx) (err error) {
		p, err = getProvider(tx.Bucket(bucketProviders), id)
		return err
	})
	return p, err
}

// ProviderByName returns the provider whose name matches name, ignoring case
// and surrounding spaces, or ErrNotFound.
func (s *Store) ProviderByName(name string) (Provider, error) {
	var p Provider
	err := s.db.View(func(tx *bbolt.Tx) error {
		found, ok, err := findProvider(tx.Bucket(bucketProviders), name, "")
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("provider named %q: %w", strings.TrimSpace(name), ErrNotFound)
		}
		p = found
		return nil
	})
	return p, err
}

// PutProvider stores p and returns the stored record.
//
// With an empty ID it inserts a new provider under a fresh random ID and
// sets CreatedAt. Otherwise it replaces the provider with that ID, which
// must exist (else ErrNotFound), keeping its CreatedAt. Either way it trims
// Name and BaseURL, sets UpdatedAt, and refuses (ErrInvalid) an empty name,
// a Kind other than ProviderOpenAI and ProviderAnthropic, a BaseURL that is
// not an http or https URL, or Quirks that are not a JSON object; and a name
// another provider has, ignoring case (ErrDuplicateName). The API key is not
// part of p: save it with PutSecret(SecretAPIKey, ...).
func (s *Store) PutProvider(p Provider) (Provider, error) {
	if err := cleanProvider(&p); err != nil {
		return Provider{}, err
	}
	var stored Provider
	err := s.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketProviders)
		now := s.now()
		if p.ID == "" {
			p.ID = newID(b)
			p.CreatedAt = now
		} else {
			old, err := getProvider(b, p.ID)
			if err != nil {
				return err
			}
			p.CreatedAt = old.CreatedAt
		}
		p.UpdatedAt = now

		other, taken, err := findProvider(b, p.Name, p.ID)
		if err != nil {
			return err
		}
		if taken {
			return fmt.Errorf("%w: a provider named %q already exists", ErrDuplicateName, other.Name)
		}

		data, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("encode provider: %w", err)
		}
		// Return what a later read will see, not the caller's value.
		if err := json.Unmarshal(data, &stored); err != nil {
			return fmt.Errorf("encode provider: %w", err)
		}
		return b.Put([]byte(p.ID), data)
	})
	if err != nil {
		return Provider{}, err
	}
	return stored, nil
}

// DeleteProvider removes the provider with the given ID and its API key
// saved in the data file, and clears Settings.DefaultProviderID if it named
// the provider, or returns ErrNotFound. Conversations that used it keep its
// ID (their provider is then missing). Its ID is not given to any later
// provider.
func (s *Store) DeleteProvider(id string) error {
	return s.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketProviders)
		if b.Get([]byte(id)) == nil {
			return fmt.Errorf("provider %q: %w", id, ErrNotFound)
		}
		if err := deleteSecret(tx, SecretAPIKey, id); err != nil {
			return err
		}
		set, err := readSettings(tx)
		if err != nil {
			return err
		}
		if set.DefaultProviderID == id {
			set.DefaultProviderID = ""
			if err := putJSON(tx.Bucket(bucketSettings), keySettings, set); err != nil {
				return fmt.Errorf("clear the default provider: %w", err)
			}
		}
		if err := b.Delete([]byte(id)); err != nil {
			return fmt.Errorf("delete provider %q: %w", id, err)
		}
		return nil
	})
}

// cleanProvider trims p's text fields and checks them, in sentences.
func cleanProvider(p *Provider) error {
	p.Name = strings.TrimSpace(p.Name)
	p.BaseURL = strings.TrimSpace(p.BaseURL)
	if p.Name == "" {
		return fmt.Errorf("%w: a provider needs a name", ErrInvalid)
	}
	switch p.Kind {
	case ProviderOpenAI, ProviderAnthropic:
	default:
		return fmt.Errorf("%w: the provider %q has kind %q; it must be %q or %q",
			ErrInvalid, p.Name, p.Kind, ProviderOpenAI, ProviderAnthropic)
	}
	if p.BaseURL != "" {
		u, err := url.Parse(p.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%w: the base URL of provider %q must be an http or https URL, such as http://127.0.0.1:11434/v1",
				ErrInvalid, p.Name)
		}
	}
	quirks := bytes.TrimSpace(p.Quirks)
	switch {
	case len(quirks) == 0 || string(quirks) == "null":
		p.Quirks = nil
	case quirks[0] != '{' || !json.Valid(quirks):
		return fmt.Errorf("%w: the settings (quirks) of provider %q must be a JSON object", ErrInvalid, p.Name)
	default:
		var compact bytes.Buffer
		if err := json.Compact(&compact, quirks); err != nil {
			return fmt.Errorf("%w: the settings (quirks) of provider %q must be a JSON object", ErrInvalid, p.Name)
		}
		p.Quirks = compact.Bytes()
	}
	return nil
}

// getProvider reads the provider stored under id.
func getProvider(b *bbolt.Bucket, id string) (Provider, error) {
	v := b.Get([]byte(id))
	if v == nil {
		return Provider{}, fmt.Errorf("provider %q: %w", id, ErrNotFound)
	}
	return decodeProvider([]byte(id), v)
}

// findProvider returns the provider other than exceptID whose name equals
// name, ignoring case and surrounding spaces.
func findProvider(b *bbolt.Bucket, name, exceptID string) (Provider, bool, error) {
	return findNamed(b, name, exceptID, decodeProvider, func(p Provider) string { return p.Name })
}

// decodeProvider decodes the record stored under key k.
func decodeProvider(k, v []byte) (Provider, error) {
	var p Provider
	err := decodeValue(bucketProviders, k, v, &p)
	return p, err
}
