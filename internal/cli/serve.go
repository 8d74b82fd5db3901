package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"mark1/images"
	"mark1/machine"
	"mark1/panel"
)

// serveMemoryLimit is the soft memory limit serve asks of Go's garbage
// collector (unless GOMEMLIMIT is set): the uploads' decoding budget and
// 128 MiB for the machine, its cards and the pages.
const serveMemoryLimit = images.DefaultMaxDecodeBytes + 128<<20

func runServe(ctx context.Context, env *Env, args []string) error {
	var mf machineFlags
	var addr, path, task, out string
	var perClass, maxPixels int
	var maxUpload int64
	var delay, uploadTimeout time.Duration
	var allowRemote bool
	fs := newFlags(env, "serve [--addr HOST:PORT] [--machine FILE | --task NAME --preset NAME ...]", `Serves the operator panel in your browser: the retina, the A-units, the R-unit
lamps and the dials, live while the machine trains. Pick a task, present cards,
step or run training, drop your own picture on the retina, and force the right
response as the 1960 trainer did. Every tab shows the same machine.
Listens on the loopback address only; another address needs --allow-remote.
The panel answers only requests addressed to it by a loopback name or the
--addr address, and takes controls only from its own page.`)
	fs.StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.StringVar(&path, "machine", "", "start from this saved machine (default: a fresh one built from the flags)")
	fs.StringVar(&task, "task", "", "built-in task whose cards are shown (default: the machine's own, or shapes)")
	fs.StringVar(&out, "out", "", "let the panel's Save button write the machine to this file (atomically); default: saving off")
	fields := fieldFlags{} // panel.Config's fields → the flags that set them
	fs.IntVar(&perClass, "n", panel.DefaultPerClass, "cards per class")
	fields.add("per_class", "n")
	fs.Int64Var(&maxUpload, "max-upload", panel.DefaultMaxUpload, "largest picture upload, in bytes")
	fields.add("max_upload", "max-upload")
	fs.IntVar(&maxPixels, "max-pixels", images.DefaultMaxPixels, "refuse uploaded pictures larger than this many pixels (checked before decoding); pictures over 1 megapixel are kept box-averaged down to at most 1 megapixel")
	fs.DurationVar(&delay, "delay", panel.DefaultDelay, "pause between presentations while training runs")
	fields.add("delay", "delay")
	fs.BoolVar(&allowRemote, "allow-remote", false, "allow an --addr that other computers can reach (anyone who reaches it can work the panel)")
	fs.DurationVar(&uploadTimeout, "upload-timeout", panel.DefaultUploadTimeout, "time an upload's body may take to arrive")
	fields.add("upload_timeout", "upload-timeout")
	memory := memoryFlag(fs)
	mf.register(fs, memory)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("serve: unexpected argument %q", fs.Arg(0))
	}
	if delay == 0 {
		delay = panel.NoDelay // the flag's 0 trains at full speed
	}
	// The flags' 0 asks for none, where the panel reads 0 as its default
	// (explicitZero): the panel refuses it in its own words.
	cfg := panel.Config{PerClass: explicitZero(perClass), MaxUpload: explicitZero(maxUpload), SavePath: out,
		Delay: delay, UploadTimeout: explicitZero(uploadTimeout)}
	if err := cfg.Validate(); err != nil { // the panel's rules
		if msg, ok := fields.blame(err, given(fs)); ok {
			return usageError{errors.New(msg)}
		}
		return usageError{err}
	}
	cfg.Limits = images.Limits{MaxPixels: maxPixels, MaxBytes: memory.bytes()}
	if err := checkLimits(cfg.Limits, limitFields(), given(fs)); err != nil { // the data's rules (images.Source.Validate)
		return err
	}
	listen, hosts, remote, err := serveHosts(addr)
	if err != nil {
		return usagef("serve: --addr %q: %v", addr, err)
	}
	if remote && !allowRemote {
		return usagef("serve: --addr %q can be reached from other computers, and whoever reaches the panel can work it; add --allow-remote to serve it anyway, or use 127.0.0.1:PORT", addr)
	}
	var m *machine.Machine
	if path != "" {
		if m, err = loadMachine(ctx, memory.bytes(), path); err != nil {
			return err
		}
	} else {
		cfg, err := mf.build(given(fs))
		if err != nil {
			return err
		}
		name := task
		if name == "" {
			name = images.DefaultTask
		}
		info, ok := images.LookupTask(name)
		if !ok {
			return usagef("serve: unknown task %q (see mark1 tasks)", name)
		}
		if err := cfg.CheckSize(len(info.Classes), memory.bytes()); err != nil {
			return dataHint(err)
		}
		if m, err = machine.New(cfg, info.Classes, machine.SeedsFrom(mf.seed), nil); err != nil {
			return err
		}
		task = name
	}
	cfg.Machine, cfg.Task, cfg.Hosts = m, task, hosts
	p, err := panel.New(cfg)
	if err != nil {
		return usageError{err}
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// Uploads share one decoding budget, but Go's collector lets the
		// heap grow to twice what is live before it runs: 8 uploads of a
		// 24-megapixel photo took the server to 620 MB. A soft limit of
		// the budget plus room for the machine keeps it near 400 MB.
		old := debug.SetMemoryLimit(serveMemoryLimit)
		defer debug.SetMemoryLimit(old)
	}
	srv := p.HTTPServer()
	if remote && !loopbackAddr(ln.Addr()) {
		fmt.Fprintf(env.Stderr, "mark1: warning: serving on %s, reachable from other computers (--allow-remote); anyone who reaches it can work the panel\n", ln.Addr())
	}
	fmt.Fprintf(env.Stdout, "The Mark I panel is at http://%s/ (Ctrl-C to stop).\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		p.Close()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	p.Close() // ends the event streams, so Shutdown need not wait for them
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return ctx.Err()
}

// serveHosts returns the address to listen on for addr, the Host names
// that requests to it may give besides loopback ones, and whether it is
// reachable from other computers (not a loopback address or "localhost").
// Host names are compared without regard to case, and a trailing dot names
// the same host ("LOCALHOST.:8080" listens on localhost:8080). A host that
// looks like an IP address but is none (256.0.0.1) is an error.
func serveHosts(addr string) (listen string, hosts []string, remote bool, err error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", nil, false, err
	}
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	if name == "localhost" {
		return net.JoinHostPort(name, port), nil, false, nil
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if ip.IsLoopback() {
			return addr, nil, false, nil
		}
		if !ip.IsUnspecified() {
			return addr, []string{host}, true, nil
		}
	} else if host != "" {
		if strings.Contains(host, ":") || strings.Trim(host, "0123456789.") == "" {
			return "", nil, false, fmt.Errorf("%q is not a valid IP address", host)
		}
		return addr, []string{name}, true, nil
	}
	// Every interface: its addresses and this computer's name.
	if name, err := os.Hostname(); err == nil {
		hosts = append(hosts, name)
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				hosts = append(hosts, n.IP.String())
			}
		}
	}
	return addr, hosts, true, nil
}

// loopbackAddr reports whether a listener's address is a loopback one.
func loopbackAddr(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}
