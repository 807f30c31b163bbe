// Package xgrab reads pixels from an X server (Xvfb) over the X11 protocol
// itself: a connection without authentication and GetImage of the root
// window. A capture takes about a millisecond, so the start-up benchmark can
// watch the screen every few milliseconds instead of forking a screenshot
// tool each time.
package xgrab

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// Conn is a connection to an X display.
type Conn struct {
	c             net.Conn
	Root          uint32
	Width, Height int
	depth         byte
}

// Dial connects to display ":N" (a local server, through its Unix socket).
// The server must accept connections without authentication, as Xvfb does
// when started without -auth.
func Dial(display string) (*Conn, error) {
	num, _, _ := strings.Cut(strings.TrimPrefix(display, ":"), ".")
	if _, err := strconv.Atoi(num); err != nil {
		return nil, fmt.Errorf("xgrab: display %q is not :N", display)
	}
	c, err := net.DialTimeout("unix", "/tmp/.X11-unix/X"+num, 5*time.Second)
	if err != nil {
		return nil, err
	}
	x := &Conn{c: c}
	if err := x.setup(); err != nil {
		c.Close()
		return nil, err
	}
	return x, nil
}

// Close closes the connection.
func (x *Conn) Close() error { return x.c.Close() }

func (x *Conn) setup() error {
	// byte order 'l' (little endian), protocol 11.0, no authorization.
	req := []byte{'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	if _, err := x.c.Write(req); err != nil {
		return err
	}
	head := make([]byte, 8)
	if _, err := io.ReadFull(x.c, head); err != nil {
		return err
	}
	body := make([]byte, int(binary.LittleEndian.Uint16(head[6:]))*4)
	if _, err := io.ReadFull(x.c, body); err != nil {
		return err
	}
	if head[0] != 1 {
		return fmt.Errorf("xgrab: the X server refused the connection: %s", strings.TrimRight(string(body), "\x00"))
	}
	vendorLen := int(binary.LittleEndian.Uint16(body[16:]))
	formats := int(body[21])
	screen := 32 + (vendorLen+3)/4*4 + 8*formats
	if len(body) < screen+40 {
		return errors.New("xgrab: short setup reply")
	}
	x.Root = binary.LittleEndian.Uint32(body[screen:])
	x.Width = int(binary.LittleEndian.Uint16(body[screen+20:]))
	x.Height = int(binary.LittleEndian.Uint16(body[screen+22:]))
	x.depth = body[screen+38]
	return nil
}

// Grab returns the root window's pixels in r (ZPixmap, 32 bits per pixel:
// a 24-bit Xvfb screen). The returned image aliases no buffer of the Conn.
func (x *Conn) Grab(r image.Rectangle) (*image.RGBA, error) {
	req := make([]byte, 20)
	req[0] = 73 // GetImage
	req[1] = 2  // ZPixmap
	binary.LittleEndian.PutUint16(req[2:], 5)
	binary.LittleEndian.PutUint32(req[4:], x.Root)
	binary.LittleEndian.PutUint16(req[8:], uint16(r.Min.X))
	binary.LittleEndian.PutUint16(req[10:], uint16(r.Min.Y))
	binary.LittleEndian.PutUint16(req[12:], uint16(r.Dx()))
	binary.LittleEndian.PutUint16(req[14:], uint16(r.Dy()))
	binary.LittleEndian.PutUint32(req[16:], 0xffffffff)
	if _, err := x.c.Write(req); err != nil {
		return nil, err
	}
	head := make([]byte, 32)
	for {
		if _, err := io.ReadFull(x.c, head); err != nil {
			return nil, err
		}
		if head[0] == 0 {
			return nil, fmt.Errorf("xgrab: X error %d on GetImage", head[1])
		}
		if head[0] == 1 {
			break
		}
		// An event: the server sends some to every client whether it asked
		// or not (MappingNotify when xdotool changes the keyboard mapping
		// to type a character). Each is 32 bytes; skip it.
	}
	data := make([]byte, int(binary.LittleEndian.Uint32(head[4:]))*4)
	if _, err := io.ReadFull(x.c, data); err != nil {
		return nil, err
	}
	if len(data) < r.Dx()*r.Dy()*4 {
		return nil, fmt.Errorf("xgrab: %d bytes for %v; is the screen 24 bits deep?", len(data), r)
	}
	img := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	for i := 0; i < r.Dx()*r.Dy(); i++ { // BGRX to RGBA
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = data[4*i+2], data[4*i+1], data[4*i], 255
	}
	return img, nil
}
