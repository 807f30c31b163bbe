package gateway

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"

	"github.com/gatehouse-app/gatehouse/gateway/pipe"
)

// firstRead bounds the first read on a gateway connection: the handover
// byte, or the start of a client's first message.
const firstRead = 64 << 10

// serveSocket serves one connection on the gateway socket, in the
// background. gatehouse-gateway first hands over the other app's own
// standard input and output (pipe.HandoverByte with two descriptors):
// the session is then served on them directly, and the connection only
// says when that process ends (and tells it when the session ended). Any
// other connection speaks MCP on the socket itself.
func (g *Gateway) serveSocket(c *net.UnixConn, launcher Launcher) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		stop := context.AfterFunc(g.ctx, func() { c.Close() })
		first, files, err := readHandover(c)
		if !stop() || err != nil {
			closeAll(files)
			c.Close()
			return
		}
		if files == nil {
			in := struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(first), c), c}
			if _, err := g.Serve(g.ctx, in, c, launcher); err != nil {
				c.Close()
			}
			return
		}
		ss, err := g.Serve(g.ctx, files[0], files[1], launcher)
		if err != nil {
			closeAll(files)
			c.Close()
			return
		}
		g.handedOver.Add(1)
		// gatehouse-gateway ended (the other app stopped it): so does the
		// session. The session ended: gatehouse-gateway is told, and exits.
		go func() {
			_, _ = io.Copy(io.Discard, c)
			closeAll(files) // first: the session waits for its writes, which may wait for the other app
			ss.Close()
		}()
		_ = ss.Wait()
		c.Close()
	}()
}

// readHandover reads the first bytes of a connection. When they are the
// handover, it returns the two descriptors handed over as files (the
// other app's input and output, made non-blocking for Go's poller);
// otherwise the bytes read, which begin the client's first message.
func readHandover(c *net.UnixConn) ([]byte, []*os.File, error) {
	buf := make([]byte, firstRead)
	oob := make([]byte, syscall.CmsgSpace(4*4))
	n, oobn, flags, _, err := c.ReadMsgUnix(buf, oob)
	if err != nil && n == 0 {
		return nil, nil, err
	}
	var fds []int
	if oobn > 0 {
		msgs, perr := syscall.ParseSocketControlMessage(oob[:oobn])
		if perr != nil {
			return nil, nil, fmt.Errorf("reading a gateway handover: %w", perr)
		}
		for _, m := range msgs {
			got, _ := syscall.ParseUnixRights(&m)
			fds = append(fds, got...)
		}
	}
	if len(fds) == 0 {
		return buf[:n], nil, nil
	}
	files := make([]*os.File, 0, len(fds))
	for _, fd := range fds {
		syscall.CloseOnExec(fd) // never inherited by a server the app starts
		_ = syscall.SetNonblock(fd, true)
		files = append(files, os.NewFile(uintptr(fd), "gateway client"))
	}
	if len(files) != 2 || n != 1 || buf[0] != pipe.HandoverByte || flags&syscall.MSG_CTRUNC != 0 {
		closeAll(files)
		return nil, nil, fmt.Errorf("reading a gateway handover: %d descriptors and %d bytes", len(files), n)
	}
	return nil, files, nil
}

// closeAll closes files.
func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}
