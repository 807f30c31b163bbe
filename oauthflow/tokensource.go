package oauthflow

import (
	"sync"

	"golang.org/x/oauth2"
)

// SavingTokenSource returns base's tokens and calls save with each one that
// differs from the last (by access token), so that a refreshed token can be
// stored. last is the token base starts from, already stored; nil saves the
// first token too. Calls to save are serialized and made before Token
// returns.
func SavingTokenSource(base oauth2.TokenSource, last *oauth2.Token, save func(*oauth2.Token)) oauth2.TokenSource {
	return &savingSource{base: base, last: last, save: save}
}

// savingSource is the token source of SavingTokenSource.
type savingSource struct {
	mu   sync.Mutex
	base oauth2.TokenSource
	last *oauth2.Token
	save func(*oauth2.Token)
}

// Token returns base's token, saving it first when it is new.
func (s *savingSource) Token() (*oauth2.Token, error) {
	t, err := s.base.Token()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last == nil || t.AccessToken != s.last.AccessToken {
		s.last = t
		s.save(t)
	}
	return t, nil
}
