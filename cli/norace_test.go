//go:build !race

package cli

// raceMemory is 1 without the race detector (see race_test.go).
const raceMemory = 1

// raceExit is 1 without the race detector (see race_test.go).
const raceExit = 1
