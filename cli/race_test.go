//go:build race

package cli

// raceMemory is how many times more memory a process of this test binary
// takes under the race detector, whose shadow memory counts in its
// resident set.
const raceMemory = 3

// raceExit is how many times longer a process of this test binary takes
// to exit under the race detector, which walks its shadow memory first.
const raceExit = 10
