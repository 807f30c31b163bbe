// The C side of package appframe (webkit.c), for webkit.go and the test
// harness (harness_windowtest.go).
#ifndef GATEHOUSE_APPFRAME_H
#define GATEHOUSE_APPFRAME_H

#include <webkit2/webkit2.h>

// appframeInstall installs the emission hook that isolates the bridge of
// the first WebKitWebView put into a container (see webkit.go). It takes
// copies of its arguments. Returns 0 when the hook could not be added.
int appframeInstall(const char *world, const char *handler, const char *relay, const char *shim, const char *scheme);

// appframeIsolate isolates the bridge of view's user content manager now
// and registers the scheme; the hook calls it. Returns 0 on failure.
int appframeIsolate(WebKitWebView *view);

// appframeSetLanguage makes the window's web context prefer the language
// tag (a copy is kept), on GTK's main thread: now when the hook has found
// the context, else as soon as it does.
void appframeSetLanguage(const char *tag);

// appframeFinish answers req with status, the headers (n names and values)
// and a copy of the body.
void appframeFinish(WebKitURISchemeRequest *req, int status, const char *contentType,
	char **names, char **values, int n, const void *body, gsize len);

#endif
