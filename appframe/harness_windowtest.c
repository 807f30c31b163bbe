//go:build linux && cgo && windowtest

// The test harness's WebKit view, set up as Wails v2.13 sets up its own on
// Linux (internal/frontend/desktop/linux/window.go NewWindow and Run,
// window.c SetupInvokeSignal, SetupWebview, sendMessageToBackend, LoadIndex).

#include "appframe.h"
#include "_cgo_export.h"

// onMessage is Wails' sendMessageToBackend: the message and the top-level
// view's URI (Wails' origin check reads that) go to Go.
static void onMessage(WebKitUserContentManager *m, WebKitJavascriptResult *result, void *data) {
	WebKitWebView *view = WEBKIT_WEB_VIEW(g_object_get_data(G_OBJECT(m), "webview"));
	const char *uri = view ? webkit_web_view_get_uri(view) : NULL;
	char *msg = jsc_value_to_string(webkit_javascript_result_get_js_value(result));
	harnessMessage(msg, (char *)(uri ? uri : ""));
	g_free(msg);
}

static void serveWails(WebKitURISchemeRequest *req, gpointer data) {
	harnessServe(req);
}

int harnessInit(void) {
	return gtk_init_check(NULL, NULL);
}

GtkWidget *harnessView(const char *uri) {
	// NewWindow
	GtkWidget *win = gtk_window_new(GTK_WINDOW_TOPLEVEL);
	GtkWidget *webviewBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
	GtkWidget *vbox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
	gtk_container_add(GTK_CONTAINER(win), vbox);
	WebKitUserContentManager *m = webkit_user_content_manager_new();
	webkit_user_content_manager_register_script_message_handler(m, "external");
	g_signal_connect(m, "script-message-received::external", G_CALLBACK(onMessage), NULL);
	// SetupWebview
	GtkWidget *view = webkit_web_view_new_with_user_content_manager(m);
	g_object_set_data(G_OBJECT(m), "webview", view);
	webkit_web_context_register_uri_scheme(webkit_web_context_get_default(), "wails", serveWails, NULL, NULL);
	gtk_window_set_default_size(GTK_WINDOW(win), 1024, 768);
	// Window.Run
	gtk_box_pack_start(GTK_BOX(webviewBox), view, 1, 1, 0);
	gtk_box_pack_start(GTK_BOX(vbox), webviewBox, 1, 1, 0);
	webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), uri);
	gtk_widget_show_all(win);
	return view;
}

void harnessLoad(GtkWidget *view, const char *uri) {
	webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), uri);
}
