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
	// The first Ctrl-C or SIGTERM asks the command to stop and tidy up; a
	// second ends the program at once, whatever it is doing.
	go func() { <-ctx.Done(); stop() }()
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
