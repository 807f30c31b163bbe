package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/gatehouse-app/gatehouse/icon"
	"github.com/gatehouse-app/gatehouse/theme/themetest"
)

// startBus starts a private session bus for the test, with no activatable
// services: the machine's own notification daemon (dunst's D-Bus service
// file) must not start when a test wants none.
func startBus(t *testing.T) string {
	t.Helper()
	return themetest.StartBareBus(t)
}

// A notifyCall is one Notify call as the service received it.
type notifyCall struct {
	AppName, AppIcon, Summary, Body string
	ReplacesID                      uint32
	Actions                         []string
	Hints                           map[string]dbus.Variant
	Timeout                         int32
}

// service plays a notification daemon on the test's bus, the way the
// Desktop Notifications Specification 1.2 describes it.
type service struct {
	conn         *dbus.Conn
	capabilities []string
	mu           sync.Mutex
	lastID       uint32
	calls        chan notifyCall
	closed       chan uint32
}

func (s *service) GetCapabilities() ([]string, *dbus.Error) { return s.capabilities, nil }

func (s *service) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "test", "gatehouse", "1", "1.2", nil
}

// Notify takes the message too: the hints as decoded from it keep their
// signatures on the wire, which godbus's conversion to the arguments loses.
func (s *service) Notify(msg dbus.Message, appName string, replacesID uint32, appIcon, summary, body string, actions []string,
	_ map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	if sig := msg.Headers[dbus.FieldSignature].Value().(dbus.Signature).String(); sig != "susssasa{sv}i" {
		return 0, dbus.MakeFailedError(fmt.Errorf("Notify's arguments are %s, not the specification's susssasa{sv}i", sig))
	}
	hints, _ := msg.Body[6].(map[string]dbus.Variant)
	s.mu.Lock()
	id := replacesID
	if id == 0 {
		s.lastID++
		id = s.lastID
	}
	s.mu.Unlock()
	s.calls <- notifyCall{appName, appIcon, summary, body, replacesID, actions, hints, timeout}
	return id, nil
}

func (s *service) CloseNotification(id uint32) *dbus.Error {
	s.closed <- id
	return nil
}

// startService owns org.freedesktop.Notifications on the bus at addr.
func startService(t *testing.T, addr string, capabilities ...string) *service {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	s := &service{conn: conn, capabilities: capabilities, calls: make(chan notifyCall, 8), closed: make(chan uint32, 8)}
	if err := conn.Export(s, servicePath, serviceInterface); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName(serviceName, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("RequestName(%s) = %v, %v", serviceName, reply, err)
	}
	return s
}

// emit sends one of the service's signals.
func (s *service) emit(t *testing.T, member string, args ...any) {
	t.Helper()
	if err := s.conn.Emit(servicePath, serviceInterface+"."+member, args...); err != nil {
		t.Fatal(err)
	}
}

func (s *service) next(t *testing.T) notifyCall {
	t.Helper()
	select {
	case c := <-s.calls:
		return c
	case <-time.After(5 * time.Second):
		t.Fatal("the notification service received no Notify call")
		return notifyCall{}
	}
}

// startNotifier connects a Notifier to the bus at addr, as Gatehouse
// connects to the session bus.
func startNotifier(t *testing.T, addr string, opts Options) *Notifier {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	n := New(conn, opts)
	t.Cleanup(func() { _ = n.Close() })
	return n
}

// clicks counts OnActivate calls.
type clicks chan struct{}

func (c clicks) activate() { c <- struct{}{} }

func question(body string) Message {
	return Message{Summary: "Weather is asking for your input", Body: body, ActionLabel: "Open Gatehouse"}
}

func TestNotification_ShowsGatehouseWithItsIcon(t *testing.T) {
	addr := startBus(t)
	svc := startService(t, addr, "body", "actions")
	n := startNotifier(t, addr, Options{OnActivate: func() {}})
	if err := n.Notify(context.Background(), question("Which city?")); err != nil {
		t.Fatal(err)
	}
	got := svc.next(t)
	if got.AppName != "Gatehouse" || got.AppIcon != "gatehouse" {
		t.Errorf("app name and icon = %q, %q; want Gatehouse, gatehouse", got.AppName, got.AppIcon)
	}
	if got.Summary != "Weather is asking for your input" || got.Body != "Which city?" {
		t.Errorf("summary, body = %q, %q", got.Summary, got.Body)
	}
	if !slices.Equal(got.Actions, []string{"default", "Open Gatehouse"}) {
		t.Errorf("actions = %q; want the default action, labelled", got.Actions)
	}
	if entry, _ := got.Hints["desktop-entry"].Value().(string); entry != "gatehouse" {
		t.Errorf("desktop-entry hint = %v; want gatehouse", got.Hints["desktop-entry"])
	}
	if urgency, _ := got.Hints["urgency"].Value().(byte); urgency != 1 {
		t.Errorf("urgency hint = %v; want byte 1 (normal)", got.Hints["urgency"])
	}

	// The icon's pixels, as the PNG drawn from icon/gatehouse.svg has them.
	hint, ok := got.Hints["image-data"]
	if !ok {
		t.Fatalf("no image-data hint among %v", got.Hints)
	}
	if sig := hint.Signature().String(); sig != "(iiibiiay)" {
		t.Fatalf("image-data signature = %s; want (iiibiiay)", sig)
	}
	var img imageData
	if err := dbus.Store([]any{hint.Value()}, &img); err != nil {
		t.Fatal(err)
	}
	b, err := icon.PNG(ImageSize)
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	want, ok := decoded.(*image.NRGBA)
	if !ok {
		t.Fatalf("the %d px icon decodes as %T; this test compares NRGBA pixels", ImageSize, decoded)
	}
	if img.Width != ImageSize || img.Height != ImageSize || img.Rowstride != 4*ImageSize || !img.HasAlpha ||
		img.BitsPerSample != 8 || img.Channels != 4 {
		t.Errorf("image-data = %d×%d, stride %d, alpha %v, %d bits, %d channels; want %d×%d RGBA, 8 bits",
			img.Width, img.Height, img.Rowstride, img.HasAlpha, img.BitsPerSample, img.Channels, ImageSize, ImageSize)
	}
	if !bytes.Equal(img.Data, want.Pix) {
		t.Errorf("image-data holds %d bytes that differ from the icon PNG's %d", len(img.Data), len(want.Pix))
	}
}

func TestNotification_ServerTextShowsAsText(t *testing.T) {
	hostile := `<a href="https://evil">x</a> & <b>bold</b>`
	tests := []struct {
		name         string
		capabilities []string
		wantBody     string
	}{
		{"a service that reads markup shows a server's link as text", []string{"body", "body-markup", "body-hyperlinks"},
			`&lt;a href="https://evil"&gt;x&lt;/a&gt; &amp; &lt;b&gt;bold&lt;/b&gt;`},
		{"a service without markup gets the text as written", []string{"body"}, hostile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr := startBus(t)
			svc := startService(t, addr, tt.capabilities...)
			n := startNotifier(t, addr, Options{})
			m := question(hostile)
			m.Summary = "<i>Weather</i> is asking"
			if err := n.Notify(context.Background(), m); err != nil {
				t.Fatal(err)
			}
			got := svc.next(t)
			if got.Body != tt.wantBody {
				t.Errorf("body = %q; want %q", got.Body, tt.wantBody)
			}
			if got.Summary != m.Summary {
				t.Errorf("summary = %q; want it unchanged (the specification's summary is never markup)", got.Summary)
			}
		})
	}
}

func TestNotification_ANewQuestionReplacesThePreviousNotification(t *testing.T) {
	addr := startBus(t)
	svc := startService(t, addr, "body", "actions")
	n := startNotifier(t, addr, Options{OnActivate: func() {}})
	notify := func(body string) notifyCall {
		t.Helper()
		if err := n.Notify(context.Background(), question(body)); err != nil {
			t.Fatal(err)
		}
		return svc.next(t)
	}
	svc.mu.Lock()
	svc.lastID = 41 // not the first notification of the session
	svc.mu.Unlock()
	if first := notify("first"); first.ReplacesID != 0 {
		t.Errorf("the first notification replaces %d; want 0 (a new one)", first.ReplacesID)
	}
	if second := notify("second"); second.ReplacesID != 42 {
		t.Errorf("the second notification replaces %d; want 42, the first one's ID", second.ReplacesID)
	}
	// The person closes it: the next one is new again.
	svc.emit(t, "NotificationClosed", uint32(42), uint32(2))
	deadline := time.Now().Add(5 * time.Second)
	for {
		third := notify("third")
		if third.ReplacesID == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the notification was closed, the next one still replaces %d", third.ReplacesID)
		}
		time.Sleep(20 * time.Millisecond)
		svc.emit(t, "NotificationClosed", third.ReplacesID, uint32(2))
	}
}

func TestNotification_ClickBringsTheWindowBack(t *testing.T) {
	addr := startBus(t)
	svc := startService(t, addr, "body", "actions")
	clicked := make(clicks, 4)
	n := startNotifier(t, addr, Options{OnActivate: clicked.activate})
	if err := n.Notify(context.Background(), question("Which city?")); err != nil {
		t.Fatal(err)
	}
	svc.next(t)
	svc.mu.Lock()
	id := svc.lastID
	svc.mu.Unlock()

	// Neither another application's notification, nor another action, nor
	// a look-alike signal from a client that is not the service is a click.
	svc.emit(t, "ActionInvoked", id+100, "default")
	svc.emit(t, "ActionInvoked", id, "other")
	other, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Emit(servicePath, serviceInterface+".ActionInvoked", id, "default"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-clicked:
		t.Fatal("the window was brought back without a click on Gatehouse's notification")
	case <-time.After(300 * time.Millisecond):
	}

	svc.emit(t, "ActionInvoked", id, "default")
	select {
	case <-clicked:
	case <-time.After(5 * time.Second):
		t.Fatal("a click on the notification did not bring the window back")
	}
}

func TestNotification_WithoutAServiceLogsOneLine(t *testing.T) {
	tests := []struct {
		name string
		addr func(t *testing.T) string
	}{
		{"no notification daemon on the bus", startBus},
		{"no session bus", func(t *testing.T) string {
			return "unix:path=" + filepath.Join(t.TempDir(), "no-bus")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("DBUS_SESSION_BUS_ADDRESS", tt.addr(t))
			var lines []string
			n := Open(Options{Logf: func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }})
			t.Cleanup(func() { _ = n.Close() })
			for range 3 {
				if err := n.Notify(context.Background(), question("Which city?")); !errors.Is(err, ErrUnavailable) {
					t.Fatalf("Notify = %v; want ErrUnavailable", err)
				}
			}
			if len(lines) != 1 || !strings.Contains(lines[0], "desktop notifications unavailable") {
				t.Errorf("log = %q; want one line saying notifications are unavailable", lines)
			}
		})
	}
}

func TestNotification_ADaemonThatStartsLaterIsUsed(t *testing.T) {
	addr := startBus(t)
	var lines []string
	n := startNotifier(t, addr, Options{Logf: func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }})
	if err := n.Notify(context.Background(), question("first")); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Notify without a daemon = %v; want ErrUnavailable", err)
	}
	svc := startService(t, addr, "body")
	if err := n.Notify(context.Background(), question("second")); err != nil {
		t.Fatalf("Notify once the daemon runs = %v", err)
	}
	if got := svc.next(t); got.Body != "second" {
		t.Errorf("body = %q; want second", got.Body)
	}
	if len(lines) != 1 {
		t.Errorf("log = %q; want the one line of the time without a daemon", lines)
	}
}

func TestNotification_AnAnsweredQuestionsNotificationGoesAway(t *testing.T) {
	addr := startBus(t)
	svc := startService(t, addr, "body")
	n := startNotifier(t, addr, Options{})
	// Nothing on screen: nothing to withdraw, and no call is made.
	if err := n.Withdraw(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := n.Notify(context.Background(), question("Which city?")); err != nil {
		t.Fatal(err)
	}
	svc.next(t)
	svc.mu.Lock()
	id := svc.lastID
	svc.mu.Unlock()
	if err := n.Withdraw(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-svc.closed:
		if got != id {
			t.Errorf("closed notification %d, want Gatehouse's %d", got, id)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the answered question's notification was not withdrawn")
	}
	// Withdrawn once: the next question's notification is a new one.
	if err := n.Withdraw(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-svc.closed:
		t.Errorf("withdrew %d again", got)
	default:
	}
	if err := n.Notify(context.Background(), question("Which day?")); err != nil {
		t.Fatal(err)
	}
	if next := svc.next(t); next.ReplacesID != 0 {
		t.Errorf("after a withdrawal the next notification replaces %d, want a new one", next.ReplacesID)
	}
}
