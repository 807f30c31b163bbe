package store

import (
	"errors"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

func TestPolicyEffective(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		policy Policy
		want   string
	}{
		{"the zero policy asks", Policy{}, PolicyAsk},
		{"decline declines", Policy{Mode: PolicyDecline}, PolicyDecline},
		{"a mute that has not ended mutes", Policy{Mode: PolicyMute, MutedUntil: now.Add(time.Minute)}, PolicyMute},
		{"a mute that ended asks", Policy{Mode: PolicyMute, MutedUntil: now.Add(-time.Minute)}, PolicyAsk},
		{"a mute ends at its end time", Policy{Mode: PolicyMute, MutedUntil: now}, PolicyAsk},
		{"a mute without end time asks", Policy{Mode: PolicyMute}, PolicyAsk},
		{"a mute in another time zone compares instants",
			Policy{Mode: PolicyMute, MutedUntil: now.Add(time.Minute).In(time.FixedZone("UTC+5", 5*3600))}, PolicyMute},
		{"an unknown mode asks", Policy{Mode: "allow"}, PolicyAsk},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.policy.Effective(now); got != tc.want {
				t.Errorf("Effective = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestPutPolicy(t *testing.T) {
	// The fake clock reads early 2025.
	future := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	past := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		before  *Policy // saved first, if set
		put     Policy
		unknown bool // put for an ID no server has
		wantErr error
		want    Policy // read back afterwards
	}{
		{name: "nothing saved reads as ask", want: Policy{}},
		{name: "decline is saved", put: Policy{Mode: PolicyDecline}, want: Policy{Mode: PolicyDecline}},
		{name: "a mute is saved with its end", put: Policy{Mode: PolicyMute, MutedUntil: future},
			want: Policy{Mode: PolicyMute, MutedUntil: future}},
		{name: "a mute that already ended reads as ask", put: Policy{Mode: PolicyMute, MutedUntil: past}, want: Policy{}},
		{name: "ask replaces a saved decline", before: &Policy{Mode: PolicyDecline}, put: Policy{}, want: Policy{}},
		{name: "decline replaces a saved mute", before: &Policy{Mode: PolicyMute, MutedUntil: future},
			put: Policy{Mode: PolicyDecline}, want: Policy{Mode: PolicyDecline}},
		{name: "an unknown mode is invalid", before: &Policy{Mode: PolicyDecline},
			put: Policy{Mode: "allow"}, wantErr: ErrInvalid, want: Policy{Mode: PolicyDecline}},
		{name: "a mute without end is invalid", put: Policy{Mode: PolicyMute}, wantErr: ErrInvalid, want: Policy{}},
		{name: "an end time without mute is invalid", put: Policy{Mode: PolicyDecline, MutedUntil: future},
			wantErr: ErrInvalid, want: Policy{}},
		{name: "an unknown server is not found", put: Policy{Mode: PolicyDecline}, unknown: true,
			wantErr: ErrNotFound, want: Policy{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			fakeClock(s)
			srv, err := s.PutServer(Server{Name: "files"})
			if err != nil {
				t.Fatal(err)
			}
			if tc.before != nil {
				if err := s.PutPolicy(srv.ID, *tc.before); err != nil {
					t.Fatal(err)
				}
			}
			id := srv.ID
			if tc.unknown {
				id = "nope"
			}
			if err := s.PutPolicy(id, tc.put); !errors.Is(err, tc.wantErr) {
				t.Fatalf("PutPolicy = %v, want %v", err, tc.wantErr)
			}
			got, err := s.Policy(srv.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Mode != tc.want.Mode || !got.MutedUntil.Equal(tc.want.MutedUntil) {
				t.Errorf("Policy = %+v, want %+v", got, tc.want)
			}
			err = s.db.View(func(tx *bbolt.Tx) error {
				v := tx.Bucket(bucketPolicies).Get([]byte(srv.ID))
				if stored := v != nil; stored != (tc.want != Policy{}) {
					t.Errorf("stored policy record %q, want one only for a policy other than ask", v)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if tc.unknown {
				if got, err := s.Policy(id); err != nil || got != (Policy{}) {
					t.Errorf("Policy of an unknown server = %+v, %v; want the zero Policy", got, err)
				}
			}
		})
	}
}

func TestPolicySurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir)
	srv, err := s.PutServer(Server{Name: "files"})
	if err != nil {
		t.Fatal(err)
	}
	until := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := s.PutPolicy(srv.ID, Policy{Mode: PolicyMute, MutedUntil: until}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openT(t, dir)
	got, err := s.Policy(srv.ID)
	if err != nil || got.Mode != PolicyMute || !got.MutedUntil.Equal(until) {
		t.Errorf("after reopen Policy = %+v, %v; want a mute until %v", got, err, until)
	}
}

func TestDeleteServerDeletesItsPolicy(t *testing.T) {
	s := openT(t, t.TempDir())
	gone, err := s.PutServer(Server{Name: "gone"})
	if err != nil {
		t.Fatal(err)
	}
	kept, err := s.PutServer(Server{Name: "kept"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{gone.ID, kept.ID} {
		if err := s.PutPolicy(id, Policy{Mode: PolicyDecline}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteServer(gone.ID); err != nil {
		t.Fatal(err)
	}
	err = s.db.View(func(tx *bbolt.Tx) error {
		if v := tx.Bucket(bucketPolicies).Get([]byte(gone.ID)); v != nil {
			t.Errorf("policy of the deleted server is still stored: %s", v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.Policy(kept.ID); err != nil || got.Mode != PolicyDecline {
		t.Errorf("policy of the other server = %+v, %v; want decline", got, err)
	}
}
