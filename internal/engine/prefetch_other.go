//go:build !amd64 || purego

package engine

import "unsafe"

// prefetch does nothing where the engine has no prefetch instruction to
// give (see prefetch_asm.go).
func prefetch(unsafe.Pointer) {}
