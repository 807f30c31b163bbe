// Package icon is Gatehouse's app icon: the source drawing gatehouse.svg and
// the PNGs rendered from it by scripts/icons.sh, one per size in Sizes. The
// window and the desktop notifications use them; the hicolor theme install
// (issue 13) takes the same files.
package icon

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"strings"
)

// Sizes are the square sizes, in pixels, the icon is rendered at: the
// hicolor theme's usual ones, from a panel's 16 to a launcher's 512.
var Sizes = []int{16, 32, 48, 64, 128, 256, 512}

// WindowSize is the size handed to the window manager for the window's
// icon; it scales it down for title bars and task switchers.
const WindowSize = 256

//go:embed gatehouse.svg png
var files embed.FS

// SVG returns the source drawing.
func SVG() []byte {
	b, _ := files.ReadFile("gatehouse.svg") // embedded: cannot fail
	return b
}

// PNG returns the icon rendered at size×size pixels, or an error naming
// the sizes there are.
func PNG(size int) ([]byte, error) {
	b, err := files.ReadFile(fmt.Sprintf("png/gatehouse-%d.png", size))
	if err != nil {
		return nil, fmt.Errorf("no %d px icon (there are %v): %w", size, Sizes, err)
	}
	return b, nil
}

// Window returns the PNG for the window's icon (WindowSize).
func Window() []byte {
	b, _ := PNG(WindowSize) // embedded; a test checks it exists
	return b
}

// renderedFrom returns the SHA-256 of the SVG the PNGs were rendered from,
// as scripts/icons.sh recorded it, and of the SVG now.
func renderedFrom() (recorded, now string) {
	b, _ := files.ReadFile("png/SOURCE")
	sum := sha256.Sum256(SVG())
	return strings.TrimSpace(string(b)), hex.EncodeToString(sum[:])
}
