package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime/debug"

	"mark1/images"
	"mark1/machine"
	"mark1/panel"

	"github.com/spf13/pflag"
)

// serveOptions are serve's flags.
type serveOptions struct {
	mf          machineFlags
	addr, path  string
	cfg         panel.Config // --task, --out; the rest from panel.ConfigOptions
	allowRemote bool
	memory      *budget
	fields      fieldFlags // panel.Config's fields → the flags that set them
}

// serveFlags registers serve's flags on a new flag set.
func serveFlags(env *Env, o *serveOptions) *pflag.FlagSet {
	fs := newFlags(env, "serve [--addr HOST:PORT] [--machine FILE | --task NAME --preset NAME ...]", `Serves the operator panel in your browser: the retina, the A-units, the R-unit
lamps and the dials, live while the machine trains. Pick a task, present cards,
step or run training, drop your own picture on the retina, and force the right
response as the 1960 trainer did. Every tab shows the same machine.
Listens on the loopback address only; another address needs --allow-remote.
The panel answers only requests addressed to it by a loopback name or the
--addr address, and takes controls only from its own page.`)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.StringVar(&o.path, "machine", "", "start from this saved machine (default: a fresh one built from the flags)")
	fs.StringVar(&o.cfg.Task, "task", "", "built-in task whose cards are shown (default: the machine's own, or shapes)")
	fs.StringVar(&o.cfg.SavePath, "out", "", "let the panel's Save button write the machine to this file (atomically); default: saving off")
	o.fields = fieldFlags{}
	addOptions(fs, o.fields, panel.ConfigOptions(), "n", "max-upload", "max-pixels", "delay")
	fs.BoolVar(&o.allowRemote, "allow-remote", false, "allow an --addr that other computers can reach (anyone who reaches it can work the panel)")
	addOptions(fs, o.fields, panel.ConfigOptions(), "upload-timeout")
	o.memory = memoryFlag(fs)
	o.mf.fourLayer = true
	o.mf.register(fs, o.memory)
	return fs
}

func runServe(ctx context.Context, env *Env, args []string) error {
	var o serveOptions
	fs := serveFlags(env, &o)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	cfg, remote, err := o.config(fs)
	if err != nil {
		return err
	}
	if cfg.Machine, cfg.Task, err = o.machine(ctx, fs); err != nil {
		return err
	}
	p, err := panel.New(cfg)
	if err != nil {
		return usageError{err}
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if os.Getenv("GOMEMLIMIT") == "" { // the panel's soft memory limit
		old := debug.SetMemoryLimit(panel.MemoryLimit)
		defer debug.SetMemoryLimit(old)
	}
	if remote && !panel.LoopbackAddr(ln.Addr()) {
		fmt.Fprintf(env.Stderr, "mark1: warning: serving on %s, reachable from other computers (--allow-remote); anyone who reaches it can work the panel\n", ln.Addr())
	}
	fmt.Fprintf(env.Stdout, "The Mark I panel is at http://%s/ (Ctrl-C to stop).\n", ln.Addr())
	if err := p.Serve(ctx, ln); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("serve: %w", err)
	}
	return ctx.Err()
}

// config returns the panel's configuration the flags describe, checked by
// the panel's own rules, and whether --addr is reachable from other
// computers.
func (o *serveOptions) config(fs *pflag.FlagSet) (panel.Config, bool, error) {
	cfg := o.cfg
	if err := setOptions(fs, &cfg, panel.ConfigOptions(), false); err != nil {
		return cfg, false, err
	}
	if err := cfg.Validate(); err != nil { // the panel's rules
		return cfg, false, o.fields.refuse(err, given(fs))
	}
	cfg.Limits.MaxBytes = o.memory.bytes()
	listen, hosts, remote, err := panel.ListenAddr(o.addr)
	if err != nil {
		return cfg, false, usagef("serve: --addr %q: %v", o.addr, err)
	}
	if remote && !o.allowRemote {
		return cfg, false, usagef("serve: --addr %q can be reached from other computers, and whoever reaches the panel can work it; add --allow-remote to serve it anyway, or use 127.0.0.1:PORT", o.addr)
	}
	o.addr, cfg.Hosts = listen, hosts
	return cfg, remote, nil
}

// machine returns the machine the panel starts with, from --machine or
// built from the flags, and the task whose cards it shows.
func (o *serveOptions) machine(ctx context.Context, fs *pflag.FlagSet) (*machine.Machine, string, error) {
	if o.path != "" {
		m, err := loadMachine(ctx, o.memory.bytes(), o.path)
		return m, o.cfg.Task, err
	}
	cfg, err := o.mf.build(given(fs))
	if err != nil {
		return nil, "", err
	}
	name := cmp.Or(o.cfg.Task, images.DefaultTask)
	info, ok := images.LookupTask(name)
	if !ok {
		return nil, "", usagef("serve: unknown task %q (see mark1 tasks)", name)
	}
	if err := cfg.CheckSize(len(info.Classes), o.memory.bytes()); err != nil {
		return nil, "", dataHint(err)
	}
	m, err := machine.New(cfg, info.Classes, machine.SeedsFrom(o.mf.seed), nil)
	return m, name, err
}
