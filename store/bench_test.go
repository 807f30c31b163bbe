package store

import (
	"os"
	"path/filepath"
	"testing"
)

// fullHistoryDir returns a closed data file holding a few servers and
// MaxHistory history entries of typical size.
func fullHistoryDir(b *testing.B) string {
	b.Helper()
	dir := withServers(b, 10)
	s, err := Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	fillHistory(b, s, MaxHistory, sampleEntry)
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkOpenWithFullHistory measures Open and Close of an up-to-date
// file with MaxHistory entries: the cost added to every start of the app.
func BenchmarkOpenWithFullHistory(b *testing.B) {
	dir := fullHistoryDir(b)
	fi, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := Open(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(fi.Size())/1e6, "file-MB") // after the loop, which clears metrics
}

// BenchmarkOpenWithoutHistory is BenchmarkOpenWithFullHistory's baseline:
// a file with the same servers and no history.
func BenchmarkOpenWithoutHistory(b *testing.B) {
	dir := withServers(b, 10)
	for b.Loop() {
		s, err := Open(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHistory measures History over MaxHistory entries.
func BenchmarkHistory(b *testing.B) {
	dir := fullHistoryDir(b)
	s, err := Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tests := []struct {
		name   string
		filter HistoryFilter
	}{
		{"newest page", HistoryFilter{}},
		{"one server of seven", HistoryFilter{ServerID: sampleEntry(3).ServerID}},
		{"a filter matching nothing", HistoryFilter{ServerID: "nobody"}},
		{"everything", HistoryFilter{Limit: MaxHistory}},
	}
	for _, tc := range tests {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.History(tc.filter); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
