//go:build linux && cgo && (dev || production || windowtest)

package appframe

/*
#cgo linux pkg-config: webkit2gtk-4.1 gtk+-3.0
#include <stdlib.h>
#include "appframe.h"
*/
import "C"

import (
	"errors"
	"log"
	"net/url"
	"sync"
	"unsafe"
)

var (
	installOnce sync.Once
	// relayEvent is the name of the relay's event, set by Install.
	relayEvent string
)

// observe, when set (by the tests), sees every request of the scheme,
// before it is answered.
var observe func(method, uri string)

// Install prepares the isolation of the window's bridge (see the package
// documentation): it hooks GtkWidget's parent-set signal, which Wails
// emits on GTK's main thread when it puts its WebKit view into the window,
// right before it loads the page. The hook moves the view's "external"
// handler into an isolated world, adds the relay and the shim, registers
// Scheme on the view's web context and removes itself; from then on Serve
// works. Call it on GTK's main thread after GTK is initialised (gtkwin.Open)
// and before wails.Run.
func Install() error {
	var err error
	installOnce.Do(func() {
		relayEvent = newEventName()
		relay, shim := scripts(relayEvent)
		cs := []*C.char{C.CString(worldName), C.CString(handlerName), C.CString(relay), C.CString(shim), C.CString(Scheme)}
		defer func() {
			for _, s := range cs {
				C.free(unsafe.Pointer(s))
			}
		}()
		if C.appframeInstall(cs[0], cs[1], cs[2], cs[3], cs[4]) == 0 {
			err = errors.New("isolating the window's bridge: GtkWidget::parent-set cannot be hooked")
		}
	})
	return err
}

// SetLanguage makes the window's pages speak tag (BCP 47: "en", "zh-CN")
// as WebKit sees it: navigator.language, the Accept-Language of their
// requests, and the format of date and time fields, which WebKitGTK takes
// from the process's locale (an English mm/dd/yyyy whenever the system's
// locale is English or not generated, also in a Chinese window; the lang
// attribute does not change it). Safe to call from any goroutine, before
// or after Install's hook ran (issue 26).
func SetLanguage(tag string) {
	c := C.CString(tag)
	defer C.free(unsafe.Pointer(c))
	C.appframeSetLanguage(c)
}

//export appframeIsolated
func appframeIsolated(ok C.int) {
	if ok == 0 {
		// Wails' handler may be gone from the main world: the window's
		// calls may fail, but no frame reaches Go; no app is served.
		log.Print("gatehouse: the window's bridge could not be moved into its isolated world; MCP Apps are off")
		return
	}
	isolated.Store(true)
}

//export appframeServe
func appframeServe(req *C.WebKitURISchemeRequest) {
	var method string
	if m := C.webkit_uri_scheme_request_get_http_method(req); m != nil {
		method = C.GoString(m)
	}
	uri := C.GoString(C.webkit_uri_scheme_request_get_uri(req))
	if observe != nil {
		observe(method, uri)
	}
	var id, path string
	if u, err := url.Parse(uri); err == nil {
		id, path = u.Host, u.Path
	}
	finish(req, answer(method, id, path))
}

// finish answers req with r.
func finish(req *C.WebKitURISchemeRequest, r response) {
	var names, values []*C.char
	for k, vs := range r.header {
		if k == "Content-Type" {
			continue
		}
		for _, v := range vs {
			names = append(names, C.CString(k))
			values = append(values, C.CString(v))
		}
	}
	ct := C.CString(r.header.Get("Content-Type"))
	cn, cv := cArray(names), cArray(values)
	defer func() {
		C.free(unsafe.Pointer(ct))
		for i := range names {
			C.free(unsafe.Pointer(names[i]))
			C.free(unsafe.Pointer(values[i]))
		}
		C.free(unsafe.Pointer(cn))
		C.free(unsafe.Pointer(cv))
	}()
	var body unsafe.Pointer // read (copied) by appframeFinish during the call
	if len(r.body) > 0 {
		body = unsafe.Pointer(&r.body[0])
	}
	C.appframeFinish(req, C.int(r.status), ct, cn, cv, C.int(len(names)), body, C.gsize(len(r.body)))
}

// cArray copies ss into a C array (at least one element), for C.free.
func cArray(ss []*C.char) **C.char {
	size := C.size_t(unsafe.Sizeof((*C.char)(nil)))
	a := (**C.char)(C.calloc(C.size_t(len(ss)+1), size))
	out := unsafe.Slice(a, len(ss)+1)
	copy(out, ss)
	return a
}
