package panel

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strings"
	"time"
)

// ListenAddr returns the address to listen on for addr, the Host names
// that requests to it may give besides loopback ones (Config.Hosts), and
// whether it is reachable from other computers (not a loopback address or
// "localhost").
// Host names are compared without regard to case, and a trailing dot names
// the same host ("LOCALHOST.:8080" listens on localhost:8080). A host that
// looks like an IP address but is none (256.0.0.1) is an error.
func ListenAddr(addr string) (listen string, hosts []string, remote bool, err error) {
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

// LoopbackAddr reports whether a listener's address is a loopback one.
func LoopbackAddr(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}

// Serve serves the panel on ln until ctx is done or the server fails, then
// closes the panel's event streams and shuts the server down (waiting at
// most 5 s for requests in flight). It returns ctx's error when stopped
// by ctx.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := s.HTTPServer()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		s.Close()
		return err
	case <-ctx.Done():
	}
	s.Close() // ends the event streams, so Shutdown need not wait for them
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return ctx.Err()
}
