//go:build linux && cgo && windowtest

package appframe

/*
#cgo CFLAGS: -Wno-deprecated-declarations
#include <stdlib.h>
#include "appframe.h"
int harnessInit(void);
GtkWidget *harnessView(const char *uri);
void harnessLoad(GtkWidget *view, const char *uri);
*/
import "C"

import (
	"errors"
	"net/url"
	"runtime"
	"sync"
	"unsafe"
)

// harnessMsg is a message the harness's "external" handler received, with
// the top-level page's URI, as Wails' sendMessageToBackend sees them.
type harnessMsg struct{ msg, uri string }

// harness is the test's WebKit view (harness_windowtest.c) and what it saw.
var harness struct {
	mu       sync.Mutex
	messages []harnessMsg
	requests []string            // "METHOD URI" of every request of Scheme
	pages    map[string]response // wails://wails/PATH

	work chan func()
	view *C.GtkWidget
}

//export harnessMessage
func harnessMessage(msg, uri *C.char) {
	harness.mu.Lock()
	defer harness.mu.Unlock()
	harness.messages = append(harness.messages, harnessMsg{C.GoString(msg), C.GoString(uri)})
}

//export harnessServe
func harnessServe(req *C.WebKitURISchemeRequest) {
	r := response{status: 404, header: map[string][]string{"Content-Type": {"text/plain"}}, body: []byte("not found")}
	if u, err := url.Parse(C.GoString(C.webkit_uri_scheme_request_get_uri(req))); err == nil {
		harness.mu.Lock()
		if p, ok := harness.pages[u.Path]; ok {
			r = p
		}
		harness.mu.Unlock()
	}
	finish(req, r)
}

// startGTK initialises GTK on a thread of its own, installs the hook and
// runs GTK's loop there; onGTK runs functions on it.
func startGTK() error {
	harness.work = make(chan func(), 16)
	harness.pages = map[string]response{}
	observe = func(method, uri string) {
		harness.mu.Lock()
		defer harness.mu.Unlock()
		harness.requests = append(harness.requests, method+" "+uri)
	}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if C.harnessInit() == 0 {
			started <- errors.New("GTK cannot open the display")
			return
		}
		started <- Install()
		for {
			select {
			case f := <-harness.work:
				f()
			default:
				C.g_main_context_iteration(nil, 1)
			}
		}
	}()
	return <-started
}

// onGTK runs f on GTK's thread and returns when it has.
func onGTK(f func()) {
	done := make(chan struct{})
	harness.work <- func() { f(); close(done) }
	C.g_main_context_wakeup(nil)
	<-done
}

// harnessOpen loads uri into the harness's view, creating it (and so
// running Install's hook) on the first call, then runs then on GTK's
// thread before the loop runs again (before any request of the page).
func harnessOpen(uri string, then func()) {
	onGTK(func() {
		defer then()
		cu := C.CString(uri)
		defer C.free(unsafe.Pointer(cu))
		if harness.view == nil {
			harness.view = C.harnessView(cu)
			return
		}
		C.harnessLoad(harness.view, cu)
	})
}
