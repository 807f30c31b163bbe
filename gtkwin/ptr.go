//go:build linux && cgo && (dev || production)

package gtkwin

import "unsafe"

// ptr is a C string's pointer for C.free.
func ptr[T any](p *T) unsafe.Pointer { return unsafe.Pointer(p) }
