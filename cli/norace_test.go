//go:build !race

package cli

// raceMemory is 1 without the race detector (see race_test.go).
const raceMemory = 1
