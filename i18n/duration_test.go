package i18n

import (
	"testing"
	"time"
)

func TestDuration_ReadsAsPeopleWriteIt(t *testing.T) {
	tests := []struct {
		name    string
		d       time.Duration
		english string
		chinese string
	}{
		{"a default answer time of ten minutes is ten minutes, not 10m0s", 10 * time.Minute, "10 minutes", "10 分钟"},
		{"one minute is singular", time.Minute, "1 minute", "1 分钟"},
		{"a tool call limit of 30 seconds", 30 * time.Second, "30 s", "30 秒"},
		{"a second and a half keeps its tenth", 1500 * time.Millisecond, "1.5 s", "1.5 秒"},
		{"two seconds have no needless .0", 2 * time.Second, "2 s", "2 秒"},
		{"under a second is in milliseconds", 250 * time.Millisecond, "250 ms", "250 毫秒"},
		{"a few microseconds are still something", 3 * time.Microsecond, "1 ms", "1 毫秒"},
		{"minutes and seconds", 3*time.Minute + 5*time.Second, "3 min 5 s", "3 分 5 秒"},
		{"seconds round to the nearest", 59*time.Second + 600*time.Millisecond, "1 minute", "1 分钟"},
		{"a whole hour", time.Hour, "1 hour", "1 小时"},
		{"the longest answer time, a day", 24 * time.Hour, "24 hours", "24 小时"},
		{"hours and minutes, seconds rounded away", time.Hour + 29*time.Minute + 45*time.Second, "1 h 30 min", "1 小时 30 分钟"},
		{"nothing is zero seconds", 0, "0 s", "0 秒"},
		{"a negative span is zero", -time.Second, "0 s", "0 秒"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Duration(tt.d)
			if got := m.In(English); got != tt.english {
				t.Errorf("English: %v reads %q; want %q", tt.d, got, tt.english)
			}
			if got := m.In(Chinese); got != tt.chinese {
				t.Errorf("Chinese: %v reads %q; want %q", tt.d, got, tt.chinese)
			}
		})
	}
}
