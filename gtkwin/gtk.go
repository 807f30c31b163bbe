//go:build linux && cgo && (dev || production)

package gtkwin

/*
#cgo linux pkg-config: gtk+-3.0
#include <stdlib.h>
#include <string.h>
#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/gdkx.h>
#endif

// mainWindow is the visible-or-not toplevel whose title is title, or NULL.
// GTK's main thread only.
static GtkWindow *mainWindow(const char *title) {
	GtkWindow *found = NULL;
	GList *all = gtk_window_list_toplevels();
	for (GList *l = all; l != NULL; l = l->next) {
		GtkWindow *w = GTK_WINDOW(l->data);
		const char *t = gtk_window_get_title(w);
		if (gtk_window_get_window_type(w) == GTK_WINDOW_TOPLEVEL && t != NULL && strcmp(t, title) == 0) {
			found = w;
			break;
		}
	}
	g_list_free(all);
	return found;
}

typedef struct {
	char *title;
	char *startupID; // may be NULL
	int x, y, width, height, maximise;
	int requeued;
} request;

static void freeRequest(request *r) {
	free(r->title);
	free(r->startupID);
	free(r);
}

// present brings the main window to the front: out of the minimised state,
// mapped, raised and focused. With a desktop's startup ID GTK ends the
// launch feedback and passes the ID's time (X11) or token (Wayland) on, so
// the window manager's focus-stealing prevention sees the person's click;
// from a terminal there is none, and on X11 the X server's current time
// stands for it (GDK_CURRENT_TIME would be refused by some window managers).
static gboolean present(gpointer data) {
	request *r = data;
	GtkWindow *w = mainWindow(r->title);
	if (w != NULL) {
		gtk_window_deiconify(w);
		if (r->startupID != NULL && r->startupID[0] != '\0') {
			gtk_window_set_startup_id(w, r->startupID);
		}
		guint32 time = GDK_CURRENT_TIME;
#ifdef GDK_WINDOWING_X11
		GdkWindow *gw = gtk_widget_get_window(GTK_WIDGET(w));
		if (gw != NULL && GDK_IS_X11_WINDOW(gw)) {
			time = gdk_x11_get_server_time(gw);
		}
#endif
		gtk_window_present_with_time(w, time);
	}
	freeRequest(r);
	return G_SOURCE_REMOVE;
}

static void schedulePresent(char *title, char *startupID) {
	request *r = calloc(1, sizeof(request));
	r->title = title;
	r->startupID = startupID;
	g_idle_add(present, r);
}

// place moves (and sizes) the main window once Wails has shown and
// centred it: Wails queues its centring when it shows the window, so the
// first run of this idle, after the window is visible, queues the move
// behind it.
static gboolean place(gpointer data) {
	request *r = data;
	GtkWindow *w = mainWindow(r->title);
	if (w == NULL || !gtk_widget_get_visible(GTK_WIDGET(w))) {
		if (r->requeued) { // gone again: nothing to place
			freeRequest(r);
			return G_SOURCE_REMOVE;
		}
		return G_SOURCE_CONTINUE; // the timeout source: tried again shortly
	}
	if (!r->requeued) {
		r->requeued = 1;
		g_idle_add(place, r);
		return G_SOURCE_REMOVE;
	}
	gtk_window_resize(w, r->width, r->height);
	gtk_window_move(w, r->x, r->y);
	if (r->maximise) {
		gtk_window_maximize(w);
	}
	freeRequest(r);
	return G_SOURCE_REMOVE;
}

static void schedulePlace(char *title, int x, int y, int width, int height, int maximise) {
	request *r = calloc(1, sizeof(request));
	r->title = title;
	r->x = x; r->y = y; r->width = width; r->height = height; r->maximise = maximise;
	g_timeout_add(20, place, r);
}

// showError is a modal error dialog of its own, for when there is no main
// window; it returns when the person closes it.
static void showError(const char *title, const char *text) {
	GtkWidget *d = gtk_message_dialog_new(NULL, 0, GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", text);
	gtk_window_set_title(GTK_WINDOW(d), title);
	gtk_window_set_icon_name(GTK_WINDOW(d), "gatehouse");
	gtk_window_set_position(GTK_WINDOW(d), GTK_WIN_POS_CENTER);
	gtk_dialog_run(GTK_DIALOG(d));
	gtk_widget_destroy(d);
	while (gtk_events_pending()) {
		gtk_main_iteration();
	}
}

static int onX11(void) {
#ifdef GDK_WINDOWING_X11
	GdkDisplay *d = gdk_display_get_default();
	return d != NULL && GDK_IS_X11_DISPLAY(d);
#else
	return 0;
#endif
}

static int monitorCount(void) {
	GdkDisplay *d = gdk_display_get_default();
	return d == NULL ? 0 : gdk_display_get_n_monitors(d);
}

static GdkRectangle monitorWorkarea(int i) {
	GdkRectangle r = {0, 0, 0, 0};
	GdkMonitor *m = gdk_display_get_monitor(gdk_display_get_default(), i);
	if (m != NULL) {
		gdk_monitor_get_workarea(m, &r);
	}
	return r;
}
*/
import "C"

import (
	"os"
	"runtime"
	"sync/atomic"
)

// GTK lives on the thread that initialised it: Open runs on the main
// goroutine, and Wails later runs GTK's loop on it too.
func init() { runtime.LockOSThread() }

// opened is set once Open succeeded; the other functions do nothing before.
var opened atomic.Bool

// Open initialises GTK on the display the environment names, as Wails
// would (on the X11 backend unless the session says Wayland), and returns
// ErrNoDisplay when there is none or it cannot be opened. Call it on the
// main goroutine before wails.Run, which then finds GTK ready instead of
// panicking.
func Open() error {
	// Wails' own choice, made here because GTK is initialised here first.
	if st := os.Getenv("XDG_SESSION_TYPE"); os.Getenv("GDK_BACKEND") == "" && (st == "" || st == "unspecified" || st == "x11") {
		_ = os.Setenv("GDK_BACKEND", "x11")
	}
	if C.gtk_init_check(nil, nil) != 1 {
		return ErrNoDisplay
	}
	opened.Store(true)
	return nil
}

// CanPlace reports whether windows have a position Gatehouse can read and
// set: on X11 they do; Wayland keeps it from applications.
func CanPlace() bool { return opened.Load() && C.onX11() == 1 }

// Screens returns the work area of every monitor of the display. Call it
// after Open, before wails.Run.
func Screens() []Rect {
	if !opened.Load() {
		return nil
	}
	var screens []Rect
	for i := range int(C.monitorCount()) {
		r := C.monitorWorkarea(C.int(i))
		if r.width > 0 && r.height > 0 {
			screens = append(screens, Rect{int(r.x), int(r.y), int(r.width), int(r.height)})
		}
	}
	return screens
}

// ShowError shows text in a small modal error dialog titled title and
// returns when it is closed. Call it after Open, instead of wails.Run.
func ShowError(title, text string) {
	if !opened.Load() {
		return
	}
	ct, cx := C.CString(title), C.CString(text)
	defer C.free(ptr(ct))
	defer C.free(ptr(cx))
	C.showError(ct, cx)
}

// Present brings the window titled title to the front (see present in the
// C part). startupID is the desktop's token for the start that asked, or
// empty. It may be called from any goroutine while GTK's loop runs.
func Present(title, startupID string) {
	if !opened.Load() {
		return
	}
	var id *C.char
	if startupID != "" {
		id = C.CString(startupID)
	}
	C.schedulePresent(C.CString(title), id) // freed by present
}

// PlaceWindow moves the window titled title to r once it is shown, and
// maximises it when maximise is set. It may be called from any goroutine
// before or while GTK's loop runs.
func PlaceWindow(title string, r Rect, maximise bool) {
	if !opened.Load() {
		return
	}
	m := 0
	if maximise {
		m = 1
	}
	C.schedulePlace(C.CString(title), C.int(r.X), C.int(r.Y), C.int(r.Width), C.int(r.Height), C.int(m)) // freed by place
}
