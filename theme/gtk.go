//go:build linux && cgo && (dev || production)

package theme

/*
#cgo linux pkg-config: gtk+-3.0
#include <gtk/gtk.h>

// preferDarkAtStart is GTK's gtk-application-prefer-dark-theme before
// Gatehouse first changed it; -1 until then. Read and written on GTK's
// main thread only.
static int preferDarkAtStart = -1;

// applyPreferDark runs on GTK's main thread: want is 1 (dark), 0 (light),
// or -1 (put back what GTK had).
static gboolean applyPreferDark(gpointer data) {
	GtkSettings *settings = gtk_settings_get_default();
	if (settings == NULL) {
		return G_SOURCE_REMOVE;
	}
	if (preferDarkAtStart < 0) {
		gboolean v = FALSE;
		g_object_get(settings, "gtk-application-prefer-dark-theme", &v, NULL);
		preferDarkAtStart = v ? 1 : 0;
	}
	int want = GPOINTER_TO_INT(data);
	if (want < 0) {
		want = preferDarkAtStart;
	}
	gboolean now = FALSE;
	g_object_get(settings, "gtk-application-prefer-dark-theme", &now, NULL);
	if ((now ? 1 : 0) != want) {
		// Setting it, even to the same value, makes GTK load its theme
		// again and WebKit restyle the page: not at every start.
		g_object_set(settings, "gtk-application-prefer-dark-theme", want, NULL);
	}
	return G_SOURCE_REMOVE;
}

// schedulePreferDark may be called from any thread: g_idle_add hands the
// change to GTK's main loop.
static void schedulePreferDark(int want) {
	g_idle_add(applyPreferDark, GINT_TO_POINTER(want));
}
*/
import "C"

// ApplyToGTK tells GTK which scheme the window shows: it sets GTK's
// gtk-application-prefer-dark-theme for Dark and Light, so that GTK's own
// drawing (a select's pop-up menu) and WebKitGTK's prefers-color-scheme
// match the page; NoPreference puts back what GTK had at start. It may be
// called from any goroutine once the window exists.
func ApplyToGTK(s Scheme) {
	want := -1
	switch s {
	case Dark:
		want = 1
	case Light:
		want = 0
	}
	C.schedulePreferDark(C.int(want))
}
