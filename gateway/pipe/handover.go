package pipe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
)

// HandoverByte is the one byte gatehouse-gateway sends with the other
// app's standard input and output (SCM_RIGHTS) as the first thing on the
// gateway socket: from then on the app reads and writes the other app's
// pipes itself, and no message passes through this process.
const HandoverByte = 'H'

// handOver gives the app the other app's MCP channel, in and out, when
// both are pipes or sockets: each message then crosses one process
// boundary less (issue 25, P11: the pipe's copying added about 0.6 ms to
// every call). A terminal or a file is never handed over (the app makes
// them non-blocking, which a shell sharing a terminal would feel); then,
// and when in or out is no file, it reports false and the caller copies.
func handOver(conn *net.UnixConn, in io.Reader, out io.Writer) (bool, error) {
	inFile, ok1 := in.(*os.File)
	outFile, ok2 := out.(*os.File)
	if !ok1 || !ok2 || !pipeOrSocket(inFile) || !pipeOrSocket(outFile) {
		return false, nil
	}
	var fds []int
	for _, f := range []*os.File{inFile, outFile} {
		raw, err := f.SyscallConn()
		if err != nil {
			return false, nil
		}
		_ = raw.Control(func(fd uintptr) { fds = append(fds, int(fd)) })
	}
	if len(fds) != 2 {
		return false, nil
	}
	if _, _, err := conn.WriteMsgUnix([]byte{HandoverByte}, syscall.UnixRights(fds...), nil); err != nil {
		return false, fmt.Errorf("handing the session over to the app: %w", err)
	}
	return true, nil
}

// pipeOrSocket reports whether f is a pipe or a socket.
func pipeOrSocket(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	m := fi.Mode()
	return m&os.ModeNamedPipe != 0 || m&os.ModeSocket != 0
}

// waitForEnd keeps this process alive while the app serves the session it
// was handed (the other app watches this process: its end is the
// session's end), until the app closes the socket or ctx ends.
func waitForEnd(ctx context.Context, conn *net.UnixConn) error {
	defer conn.Close()
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, conn)
		ended <- err
	}()
	select {
	case <-ctx.Done():
		return nil
	case err := <-ended:
		if err != nil && !errors.Is(err, net.ErrClosed) {
			return fmt.Errorf("waiting for the app to end the session: %w", err)
		}
		return nil
	}
}
