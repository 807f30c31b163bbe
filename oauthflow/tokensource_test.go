package oauthflow

import (
	"slices"
	"testing"

	"golang.org/x/oauth2"
)

// tokens is a token source that gives the access tokens of a list in turn.
type tokens []string

func (ts *tokens) Token() (*oauth2.Token, error) {
	t := (*ts)[0]
	*ts = (*ts)[1:]
	return &oauth2.Token{AccessToken: t}, nil
}

// TestSavingTokenSource_E33: a refreshed token is saved once, the token the
// source started from is not saved again.
func TestSavingTokenSource_E33(t *testing.T) {
	for _, tc := range []struct {
		name  string
		last  *oauth2.Token
		given tokens
		saved []string
	}{
		{"the stored token is not saved again", &oauth2.Token{AccessToken: "a"}, tokens{"a", "a"}, nil},
		{"each refreshed token is saved once", &oauth2.Token{AccessToken: "a"}, tokens{"a", "b", "b", "c"}, []string{"b", "c"}},
		{"with nothing stored the first token is saved", nil, tokens{"a", "a"}, []string{"a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var saved []string
			given := tc.given
			n := len(given)
			ts := SavingTokenSource(&given, tc.last, func(t *oauth2.Token) { saved = append(saved, t.AccessToken) })
			for range n {
				if _, err := ts.Token(); err != nil {
					t.Fatal(err)
				}
			}
			if !slices.Equal(saved, tc.saved) {
				t.Errorf("saved %v, want %v", saved, tc.saved)
			}
		})
	}
}
