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
// says), writes a line on the command's stdin and expects it on the
// socket, then writes a line on the socket and expects it on the
// command's stdout. It prints one line per check, "ok ..." or "FAIL ...",
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
	"time"

	"github.com/gatehouse-app/gatehouse/applink"
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
		_ = cmd.Wait()
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

	const toApp = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	const toClient = `{"jsonrpc":"2.0","id":1,"result":{}}`
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprintln(stdin, toApp); err != nil {
		return fmt.Errorf("writing to the command's stdin: %w", err)
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || line != toApp+"\n" {
		return fmt.Errorf("the socket got %q (%v), not the line written on stdin", line, err)
	}
	fmt.Println("ok   a line written on its stdin reaches the app's socket")
	if _, err := fmt.Fprintln(conn, toClient); err != nil {
		return fmt.Errorf("writing on the socket: %w", err)
	}
	got := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		got <- s
	}()
	select {
	case s := <-got:
		if s != toClient+"\n" {
			return fmt.Errorf("its stdout got %q, not the line written on the socket", s)
		}
	case <-time.After(10 * time.Second):
		return fmt.Errorf("nothing on its stdout 10 s after a line was written on the socket")
	}
	fmt.Println("ok   a line the app writes on the socket reaches its stdout")
	return nil
}
