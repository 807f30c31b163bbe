//go:build linux && cgo && (dev || production || windowtest)

#include <string.h>
#include "appframe.h"
#include "_cgo_export.h"

// What appframeInstall was given, kept for the hook.
static char *world, *handler, *relay, *shim, *scheme;
static int isolatedOnce;

// The window's web context once the hook found it, and the language its
// pages should use (a BCP 47 tag), set before or after that; both are only
// touched on GTK's main thread.
static WebKitWebContext *context;
static char *language;

static void applyLanguage(void) {
	if (context == NULL || language == NULL) {
		return;
	}
	const gchar *const langs[] = {language, NULL};
	webkit_web_context_set_preferred_languages(context, langs);
}

static gboolean setLanguageOnMain(gpointer data) {
	g_free(language);
	language = data;
	applyLanguage();
	return G_SOURCE_REMOVE;
}

void appframeSetLanguage(const char *tag) {
	g_main_context_invoke(NULL, setLanguageOnMain, g_strdup(tag));
}

static void serveRequest(WebKitURISchemeRequest *req, gpointer data) {
	appframeServe(req);
}

int appframeIsolate(WebKitWebView *view) {
	if (isolatedOnce) {
		return 1;
	}
	WebKitUserContentManager *m = webkit_web_view_get_user_content_manager(view);
	if (m == NULL) {
		return 0;
	}
	// The signal Wails connected ("script-message-received::external") stays
	// on the manager and is emitted for the handler in its new world too.
	webkit_user_content_manager_unregister_script_message_handler(m, handler);
	if (!webkit_user_content_manager_register_script_message_handler_in_world(m, handler, world)) {
		return 0;
	}
	WebKitUserScript *s = webkit_user_script_new_for_world(relay, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
		WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, world, NULL, NULL);
	webkit_user_content_manager_add_script(m, s);
	webkit_user_script_unref(s);
	s = webkit_user_script_new(shim, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
		WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, NULL, NULL);
	webkit_user_content_manager_add_script(m, s);
	webkit_user_script_unref(s);

	WebKitWebContext *ctx = webkit_web_view_get_context(view);
	webkit_web_context_register_uri_scheme(ctx, scheme, serveRequest, NULL, NULL);
	webkit_security_manager_register_uri_scheme_as_secure(webkit_web_context_get_security_manager(ctx), scheme);
	context = ctx;
	applyLanguage();
	isolatedOnce = 1;
	return 1;
}

// onParentSet is the emission hook of GtkWidget::parent-set: Wails puts its
// view into a box right before it loads the page (Window.Run), on GTK's
// main thread. The first WebKitWebView is isolated and the hook removed.
static gboolean onParentSet(GSignalInvocationHint *hint, guint n, const GValue *params, gpointer data) {
	if (n < 1 || !G_VALUE_HOLDS_OBJECT(&params[0])) {
		return TRUE;
	}
	GObject *obj = g_value_get_object(&params[0]);
	if (obj == NULL || !WEBKIT_IS_WEB_VIEW(obj)) {
		return TRUE;
	}
	appframeIsolated(appframeIsolate(WEBKIT_WEB_VIEW(obj)));
	return FALSE;
}

int appframeInstall(const char *w, const char *h, const char *r, const char *s, const char *sc) {
	world = g_strdup(w);
	handler = g_strdup(h);
	relay = g_strdup(r);
	shim = g_strdup(s);
	scheme = g_strdup(sc);
	gpointer klass = g_type_class_ref(GTK_TYPE_WIDGET);
	guint id = g_signal_lookup("parent-set", GTK_TYPE_WIDGET);
	g_type_class_unref(klass);
	if (id == 0) {
		return 0;
	}
	return g_signal_add_emission_hook(id, 0, onParentSet, NULL, NULL) != 0;
}

void appframeFinish(WebKitURISchemeRequest *req, int status, const char *contentType,
	char **names, char **values, int n, const void *body, gsize len) {
	GInputStream *in = g_memory_input_stream_new_from_data(g_memdup2(body, len), len, g_free);
	WebKitURISchemeResponse *resp = webkit_uri_scheme_response_new(in, len);
	g_object_unref(in);
	webkit_uri_scheme_response_set_status(resp, status, NULL);
	webkit_uri_scheme_response_set_content_type(resp, contentType);
	SoupMessageHeaders *hs = soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE);
	for (int i = 0; i < n; i++) {
		soup_message_headers_append(hs, names[i], values[i]);
	}
	webkit_uri_scheme_response_set_http_headers(resp, hs); // takes hs
	webkit_uri_scheme_request_finish_with_response(req, resp);
	g_object_unref(resp);
}
