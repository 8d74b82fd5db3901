// Package layers holds no code: its test runs `go list -deps` over the
// module and fails when a package links one it must not (the house's
// one-way rules, listed in layers_test.go).
package layers
