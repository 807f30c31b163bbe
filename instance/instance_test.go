package instance

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/gatehouse-app/gatehouse/theme/themetest"
)

// received waits for the next start handed to l.
func received(t *testing.T, l *Lock) Start {
	t.Helper()
	select {
	case s := <-l.Starts():
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("the running Gatehouse was not told of the later start within 5s")
		return Start{}
	}
}

func claim(t *testing.T, name string, me Start) (*Lock, error) {
	t.Helper()
	l, err := Claim(context.Background(), name, me)
	if l != nil {
		t.Cleanup(func() { _ = l.Close() })
	}
	return l, err
}

func TestSecondStartIsHandedToTheFirst(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", themetest.StartBus(t))
	name := Name("/home/ada/.config/gatehouse", true)

	first, err := claim(t, name, Start{})
	if err != nil || first == nil {
		t.Fatalf("first start: lock %v, error %v; want the lock", first, err)
	}
	second := Start{Args: []string{"gatehouse://servers", "--flag"}, WorkingDir: "/tmp/somewhere", StartupID: "gatehouse-42_TIME1234"}
	if l, err := claim(t, name, second); l != nil || !errors.Is(err, ErrAlreadyRunning) {
		t.Fatalf("second start: lock %v, error %v; want ErrAlreadyRunning", l, err)
	}
	if got := received(t, first); !reflect.DeepEqual(got, second) {
		t.Errorf("the first start was handed %+v, want %+v", got, second)
	}

	// Once the first has gone, the next start is the first again.
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if l, err := claim(t, name, Start{}); l == nil || err != nil {
		t.Fatalf("start after the first closed: lock %v, error %v; want the lock", l, err)
	}
}

func TestOtherDataDirectoriesHaveTheirOwnGatehouse(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", themetest.StartBus(t))
	for _, name := range []string{
		Name("/home/ada/.config/gatehouse", true),
		Name("/tmp/test-data", false),
		Name("/tmp/other-data", false),
	} {
		if l, err := claim(t, name, Start{}); l == nil || err != nil {
			t.Errorf("first start on %s: lock %v, error %v; want the lock", name, l, err)
		}
	}
}

func TestDesktopActivationWithoutGatehouseData(t *testing.T) {
	addr := themetest.StartBus(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	first, err := claim(t, BaseName, Start{})
	if err != nil {
		t.Fatal(err)
	}
	// What a desktop or `gdbus call … org.freedesktop.Application.Activate {}`
	// sends: the standard interface, only the standard keys.
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	obj := conn.Object(BaseName, "/io/github/gatehouse_app/Gatehouse")
	if err := obj.Call(Interface+".Activate", 0, map[string]dbus.Variant{
		"desktop-startup-id": dbus.MakeVariant("launcher-7_TIME99")}).Err; err != nil {
		t.Fatalf("Activate: %v", err)
	}
	if got, want := received(t, first), (Start{StartupID: "launcher-7_TIME99"}); !reflect.DeepEqual(got, want) {
		t.Errorf("Activate handed %+v, want %+v", got, want)
	}
	if err := obj.Call(Interface+".Open", 0, []string{"gatehouse://x"}, map[string]dbus.Variant{}).Err; err != nil {
		t.Fatalf("Open: %v", err)
	}
	if got, want := received(t, first), (Start{Args: []string{"gatehouse://x"}}); !reflect.DeepEqual(got, want) {
		t.Errorf("Open handed %+v, want %+v", got, want)
	}
}

func TestNoSessionBusLeavesTheDecisionToTheDataFile(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir()) // no bus socket there
	l, err := Claim(context.Background(), BaseName, Start{})
	if l != nil || !errors.Is(err, ErrNoBus) {
		t.Fatalf("lock %v, error %v; want ErrNoBus", l, err)
	}
}
