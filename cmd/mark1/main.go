// Command mark1 simulates Frank Rosenblatt's Mark I Perceptron (1958) and
// compares its motor-driven learning with modern software learners.
//
// Run "mark1 help" for the commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"mark1/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
