package i18n

import (
	"strconv"
	"time"
)

// Duration says how long d is as people write it, in the units the span
// calls for: "250 ms", "1.5 s", "42 s", "10 minutes", "3 min 5 s",
// "2 hours", "1 h 30 min" (in Chinese "250 毫秒", "1.5 秒", "10 分钟",
// "3 分 5 秒", "1 小时 30 分钟"). It rounds to the nearest unit it shows: a
// tenth of a second under 10 s, seconds under an hour, minutes above. Go's
// own Duration.String ("10m0s") is for programmers, not for the window or
// the terminal. A negative d is said as zero.
func Duration(d time.Duration) Message {
	switch {
	case d <= 0:
		return M("units.s", "n", 0)
	case d < time.Second-time.Millisecond/2:
		return M("units.ms", "n", max(1, int64((d+time.Millisecond/2)/time.Millisecond)))
	}
	if tenths := (d + 50*time.Millisecond) / (100 * time.Millisecond); tenths < 100 {
		return M("units.s", "n", strconv.FormatFloat(float64(tenths)/10, 'f', -1, 64))
	}
	if seconds := int64((d + time.Second/2) / time.Second); seconds < 60*60 {
		m, s := seconds/60, seconds%60
		switch {
		case m == 0:
			return M("units.s", "n", s)
		case s != 0:
			return M("units.minS", "m", m, "s", s)
		case m == 1:
			return M("units.minutes.one", "n", m)
		default:
			return M("units.minutes.other", "n", m)
		}
	}
	minutes := int64((d + time.Minute/2) / time.Minute)
	h, m := minutes/60, minutes%60
	switch {
	case m != 0:
		return M("units.hMin", "h", h, "m", m)
	case h == 1:
		return M("units.hours.one", "n", h)
	default:
		return M("units.hours.other", "n", h)
	}
}
