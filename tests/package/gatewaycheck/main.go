// Command gatewaycheck checks, for tests/package, that an installed
// `gatehouse gateway` runs the installed gatehouse-gateway program and
// pipes the other app's messages both ways:
//
//	go run ./tests/package/gatewaycheck -data DIR -want /usr/bin/gatehouse-gateway -- /usr/bin/gatehouse --data-dir DIR gateway
//
// It stands in for the running app: it listens on the gateway socket of
// the data folder DIR and runs the command given, which must reach that
// data folder. Once the command connects, it reads the process's
// executable from /proc (`gatehouse gateway` replaces itself by
// gatehouse-gateway, the same process, so it must be the path -want
// says), takes the command's stdin and stdout it hands over (SCM_RIGHTS),
// writes a line on the command's stdin and expects it there, writes a line
// there and expects it on the command's stdout, and ends the session: the
// command must exit. It prints one line per check, "ok ..." or "FAIL ...",
// and exits 1 when one failed. XDG_RUNTIME_DIR must be set, the same for
// it and the command.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/gateway/pipe"
)

func main() {
	data := flag.String("data", "", "the data folder the command reaches")
	want := flag.String("want", "", "the executable the session must be served by")
	flag.Parse()
	if *data == "" || *want == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: gatewaycheck -data DIR -want PATH -- COMMAND...")
		os.Exit(2)
	}
	if err := run(*data, *want, flag.Args()); err != nil {
		fmt.Println("FAIL", err)
		os.Exit(1)
	}
}

func run(data, want string, argv []string) error {
	path, err := applink.GatewaySocketPath(data)
	if err != nil {
		return err
	}
	l, err := applink.Listen(path)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", path, err)
	}
	defer l.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("running %v: %w", argv, err)
	}
	defer func() {
		stdin.Close()
		_ = cmd.Process.Kill()
	}()
	accepted := make(chan *net.UnixConn, 1)
	go func() {
		if c, err := l.AcceptUnix(); err == nil {
			accepted <- c
		}
	}()
	var conn *net.UnixConn
	select {
	case conn = <-accepted:
	case <-time.After(20 * time.Second):
		return fmt.Errorf("%v did not connect to the gateway socket %s in 20 s", argv, path)
	}
	defer conn.Close()
	fmt.Printf("ok   %v connected to the gateway socket\n", argv)

	exe, err := os.Readlink("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/exe")
	if err != nil {
		return fmt.Errorf("reading the executable of process %d: %w", cmd.Process.Pid, err)
	}
	if exe != want {
		return fmt.Errorf("the session is served by %s, not %s", exe, want)
	}
	fmt.Printf("ok   the session's process (%d) is %s\n", cmd.Process.Pid, exe)

	// gatehouse-gateway hands its stdin and stdout (pipes, here) to the
	// app: one byte, pipe.HandoverByte, with the two descriptors.
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	in, out, err := receiveHandover(conn)
	if err != nil {
		return err
	}
	defer in.Close()
	defer out.Close()
	fmt.Println("ok   it handed its stdin and stdout over to the app (SCM_RIGHTS)")

	const toApp = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	const toClient = `{"jsonrpc":"2.0","id":1,"result":{}}`
	_ = in.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprintln(stdin, toApp); err != nil {
		return fmt.Errorf("writing to the command's stdin: %w", err)
	}
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil || line != toApp+"\n" {
		return fmt.Errorf("the app got %q (%v), not the line written on stdin", line, err)
	}
	fmt.Println("ok   a line written on its stdin reaches the app")
	if _, err := fmt.Fprintln(out, toClient); err != nil {
		return fmt.Errorf("writing to its stdout: %w", err)
	}
	got := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		got <- s
	}()
	select {
	case s := <-got:
		if s != toClient+"\n" {
			return fmt.Errorf("its stdout got %q, not the line the app wrote", s)
		}
	case <-time.After(10 * time.Second):
		return fmt.Errorf("nothing on its stdout 10 s after the app wrote a line")
	}
	fmt.Println("ok   a line the app writes reaches its stdout")

	// The app ends the session: the process ends.
	conn.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			return fmt.Errorf("it ended with %v when the app ended the session", err)
		}
	case <-time.After(10 * time.Second):
		return fmt.Errorf("it still runs 10 s after the app ended the session")
	}
	fmt.Println("ok   it ends when the app ends the session")
	return nil
}

// receiveHandover reads the handover on conn: the two descriptors, as
// files the poller serves (so that deadlines work).
func receiveHandover(conn *net.UnixConn) (in, out *os.File, err error) {
	buf := make([]byte, 64)
	oob := make([]byte, syscall.CmsgSpace(2*4))
	n, oobn, _, _, err := conn.ReadMsgUnix(buf, oob)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the handover: %w", err)
	}
	msgs, err := syscall.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, nil, fmt.Errorf("no descriptors were handed over (%q, %v)", buf[:n], err)
	}
	fds, err := syscall.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 2 || n != 1 || buf[0] != pipe.HandoverByte {
		return nil, nil, fmt.Errorf("the handover was %q with %d descriptors (%v)", buf[:n], len(fds), err)
	}
	for _, fd := range fds {
		_ = syscall.SetNonblock(fd, true)
	}
	return os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "stdout"), nil
}
