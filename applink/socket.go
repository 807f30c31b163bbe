package applink

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// maxSocketPath is the size of a unix socket address's path on Linux
// (sun_path), its closing zero byte included.
const maxSocketPath = 108

// ErrInUse is Listen's refusal when another process already answers on
// the socket.
var ErrInUse = errors.New("another Gatehouse already answers on the socket")

// dialTimeout bounds how long a socket that exists may take to answer: a
// live app accepts at once; a socket left by a crashed app refuses at once.
const dialTimeout = 2 * time.Second

// SocketPath returns where the app serves the command line for the data
// directory dataDir: $XDG_RUNTIME_DIR/gatehouse/cli-<id>.sock (see
// runtimeDir), or, without one, the same name in a gatehouse/run folder of the user's
// cache directory (never the data directory, which may be on a file system
// without sockets, and whose path may be too long for one). id names the
// data directory, so a CLI given --data-dir reaches only an app running on
// that same directory.
func SocketPath(dataDir string) (string, error) { return socketPath("cli", dataDir) }

// GatewaySocketPath returns where the app serves the gateway (the MCP
// server other apps reach through `gatehouse gateway`) for the data
// directory dataDir: beside the command line's socket, in the same private
// folder, named gateway-<id>.sock.
func GatewaySocketPath(dataDir string) (string, error) { return socketPath("gateway", dataDir) }

// runUser is where systemd makes each user's runtime folder, the usual
// XDG_RUNTIME_DIR; tests point it elsewhere.
var runUser = "/run/user"

// runtimeDir is XDG_RUNTIME_DIR, or, when a process was started without
// it (an app that launches `gatehouse gateway` with a bare environment,
// as the TypeScript SDK does by default), the user's folder in /run/user
// when it is there, theirs and private: the folder the app's own
// XDG_RUNTIME_DIR names on a desktop, so that both find the same socket.
func runtimeDir() string {
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		return dir
	}
	dir := filepath.Join(runUser, strconv.Itoa(os.Getuid()))
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() || info.Mode().Perm() != 0o700 {
		return ""
	}
	if st, ok := info.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return ""
	}
	return dir
}

// socketPath is the path of the socket kind ("cli", "gateway") of dataDir.
func socketPath(kind, dataDir string) (string, error) {
	base := runtimeDir()
	if base == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("finding a folder for the command-line socket: %w", err)
		}
		base = filepath.Join(cache, "gatehouse", "run")
	} else {
		base = filepath.Join(base, "gatehouse")
	}
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return "", fmt.Errorf("reading the data folder's path: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(base, kind+"-"+hex.EncodeToString(sum[:8])+".sock"), nil
}

// privateDir makes dir (and its parents) and checks that it is a real
// directory of this user that no one else may enter: mode 0700.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("making the socket's folder: %w", err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("checking the socket's folder: %w", err)
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	switch {
	case !info.IsDir():
		return fmt.Errorf("the socket's folder %s is not a folder", dir)
	case !ok || int(st.Uid) != os.Getuid():
		return fmt.Errorf("the socket's folder %s belongs to someone else", dir)
	case info.Mode().Perm() != 0o700:
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("making the socket's folder private: %w", err)
		}
	}
	return nil
}

// Listen makes the socket at path, private to this user: its folder 0700,
// the socket 0600. A socket left by an app that crashed is replaced; one a
// live process answers on is ErrInUse; anything else at path is left alone
// and refused.
func Listen(path string) (*net.UnixListener, error) {
	if len(path) >= maxSocketPath {
		return nil, fmt.Errorf("the socket's path is too long for a socket (%d bytes, at most %d): %s", len(path), maxSocketPath-1, path)
	}
	if err := privateDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	if err := removeStale(path); err != nil {
		return nil, err
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("opening the socket %s: %w", path, err)
	}
	// The folder already keeps others out; the socket's own mode says so too.
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("making the socket private: %w", err)
	}
	l.SetUnlinkOnClose(true)
	return l, nil
}

// removeStale removes a socket at path that nobody answers on.
func removeStale(path string) error {
	info, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking the socket: %w", err)
	}
	if info.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("%s is in the way of a socket and is not a socket", path)
	}
	if c, err := net.DialTimeout("unix", path, dialTimeout); err == nil {
		c.Close()
		return ErrInUse
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing the socket a stopped Gatehouse left: %w", err)
	}
	return nil
}

// errOtherUser refuses a connection from another user's process.
var errOtherUser = errors.New("the connection comes from another user")

// samePerson checks a connection's peer credentials: only a process of the
// user running the app may use it (root included only when the app runs as
// root).
func samePerson(peerUID, selfUID int) error {
	if peerUID != selfUID {
		return fmt.Errorf("%w (uid %d, not %d)", errOtherUser, peerUID, selfUID)
	}
	return nil
}

// Peer is what the kernel recorded of the process at the other end of a
// socket connection when it connected (SO_PEERCRED): facts, unlike what
// the process says of itself.
type Peer struct {
	UID int
	PID int
}

// PeerOf reads the credentials of the process at the other end of c.
func PeerOf(c *net.UnixConn) (Peer, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return Peer{}, err
	}
	var p Peer
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, err := syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
		if err != nil {
			credErr = err
			return
		}
		p = Peer{UID: int(cred.Uid), PID: int(cred.Pid)}
	}); err != nil {
		return Peer{}, err
	}
	if credErr != nil {
		return Peer{}, fmt.Errorf("reading the peer's credentials: %w", credErr)
	}
	return p, nil
}

// peerUID reads the user ID of the process at the other end of c, as the
// kernel recorded it when it connected (SO_PEERCRED).
func peerUID(c *net.UnixConn) (int, error) {
	p, err := PeerOf(c)
	if err != nil {
		return -1, err
	}
	return p.UID, nil
}

// AcceptPeers accepts connections on l until it is closed, and hands each
// one from a process of this user to serve (on the accepting goroutine:
// serve must not block), with its credentials; any other is closed. what
// names the socket in the log ("command-line", "gateway").
func AcceptPeers(l *net.UnixListener, what string, peerOf func(*net.UnixConn) (Peer, error), serve func(*net.UnixConn, Peer)) {
	if peerOf == nil {
		peerOf = PeerOf
	}
	for {
		conn, err := l.AcceptUnix()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				log.Printf("gatehouse: the %s socket stopped: %v", what, err)
			}
			return
		}
		p, err := peerOf(conn)
		if err == nil {
			err = samePerson(p.UID, os.Getuid())
		}
		if err != nil {
			log.Printf("gatehouse: refused a %s connection: %v", what, err)
			conn.Close()
			continue
		}
		serve(conn, p)
	}
}
