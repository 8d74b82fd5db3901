package panel

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"time"
)

// The panel controls a machine on the operator's computer, so it answers
// only the operator's own browser. guard enforces that:
//
//   - DNS rebinding: a request is answered only if its Host header names a
//     loopback address ("localhost", 127.0.0.0/8, ::1) or one of
//     Config.Hosts (the address it was told to serve). A hostile page whose
//     name was made to resolve to 127.0.0.1 sends its own name as Host and
//     is refused (421).
//   - Cross-site requests: a request that changes state (any method but GET
//     and HEAD) must come from the panel's own page: its Origin, if sent,
//     must be this server's, its Sec-Fetch-Site, if sent, "same-origin",
//     and it must carry the server's token in the X-Mark1-Token header. The
//     token is drawn at random when the server starts and written into
//     every HTML page it serves (<meta name="mark1-token">); another site
//     cannot read that page, so cannot learn the token, and cannot send a
//     custom header without a CORS preflight, which the panel never grants.
//     Reads from another site (Sec-Fetch-Site cross-site or same-site) are
//     refused too, except navigating to a page.
//   - Resources: at most Config.MaxUploads uploads, Config.MaxStreams
//     event streams, Config.MaxRenders pictures drawn or lab runs computed,
//     and one change of machine (an uploaded machine, a task change, a
//     reset) at once (503 beyond, with a message); an upload's body must
//     arrive within Config.UploadTimeout (408); at most Config.MaxDecodes
//     pictures are decoded at once, so memory is bounded by MaxUploads ×
//     MaxUpload bytes of bodies plus MaxDecodes decodes of a picture
//     within the pixel limit.
//   - Time: a request's headers and body must arrive within
//     Config.ReadTimeout of its first byte (an upload's body has
//     UploadTimeout from when it is admitted instead), or the connection
//     is cut: a client that announces a body and sends part of it holds a
//     connection no longer than that, whether the request is answered or
//     refused. Once a request's body has been read to its end (or when it
//     has none) net/http lifts the read deadline itself, to watch the
//     connection for the client leaving, so an event stream or a long
//     answer is not cut (TestStreamOutlivesReadTimeout).
//
// See the OWASP cheat sheets on CSRF prevention (custom request headers,
// Fetch Metadata) and on DNS rebinding (Host validation).

// TokenHeader is the request header that carries the server's token.
const TokenHeader = "X-Mark1-Token"

// Defaults of the guard's Config fields.
const (
	DefaultMaxUploads    = 8
	DefaultMaxStreams    = 64
	DefaultMaxDecodes    = 2
	DefaultMaxRenders    = 2
	DefaultUploadTimeout = 30 * time.Second
	DefaultReadTimeout   = 10 * time.Second
)

// Time limits of the connections the panel is served on (HTTPServer).
const (
	// readHeaderTimeout bounds the arrival of a request's headers.
	readHeaderTimeout = 10 * time.Second
	// idleTimeout bounds how long a kept-alive connection waits for its
	// next request.
	idleTimeout = 2 * time.Minute
)

// guard holds the panel's request checks and resource limits.
type guard struct {
	token       string
	hosts       map[string]bool // allowed Host names besides loopback, lower case, no port
	uploads     chan struct{}   // a slot per upload in progress
	streams     chan struct{}   // a slot per open event stream
	decodes     chan struct{}   // a slot per picture being decoded
	renders     chan struct{}   // a slot per picture being drawn or lab run being computed
	loads       chan struct{}   // the one slot for a change of machine
	bodyTimeout time.Duration   // an upload's body, from when it is admitted
	readTimeout time.Duration   // a request's headers and body, from its first byte
}

// newGuard returns the guard for cfg.
func newGuard(cfg Config) (*guard, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("panel: drawing the request token: %w", err)
	}
	g := &guard{
		token:       hex.EncodeToString(b[:]),
		hosts:       map[string]bool{},
		uploads:     make(chan struct{}, orDefault(cfg.MaxUploads, DefaultMaxUploads)),
		streams:     make(chan struct{}, orDefault(cfg.MaxStreams, DefaultMaxStreams)),
		decodes:     make(chan struct{}, orDefault(cfg.MaxDecodes, DefaultMaxDecodes)),
		renders:     make(chan struct{}, orDefault(cfg.MaxRenders, DefaultMaxRenders)),
		loads:       make(chan struct{}, 1),
		bodyTimeout: orDefault(cfg.UploadTimeout, DefaultUploadTimeout),
		readTimeout: orDefault(cfg.ReadTimeout, DefaultReadTimeout),
	}
	for _, h := range cfg.Hosts {
		if h = hostName(h); h != "" {
			g.hosts[h] = true
		}
	}
	return g, nil
}

// hostName returns a host name or address as the guard compares it: lower
// case, without brackets or a trailing dot ("LocalHost." is "localhost").
func hostName(host string) string {
	return strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
}

// orDefault is v, or def when v ≤ 0 (a Config field left zero).
func orDefault[T ~int | ~int64](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// hostAllowed reports whether a Host header names this server.
func (g *guard) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = hostName(host)
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true // RFC 6761: always the loopback interface
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	return host != "" && g.hosts[host]
}

// check refuses a request that is not from the operator's own page.
func (g *guard) check(r *http.Request) error {
	if !g.hostAllowed(r.Host) {
		return errorf(http.StatusMisdirectedRequest, "host %q is not this panel's address; open it as http://localhost:%s/ (a request under another name may come from a DNS-rebinding attack)", r.Host, localPort(r))
	}
	site := r.Header.Get("Sec-Fetch-Site")
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		if (site == "cross-site" || site == "same-site") && r.Header.Get("Sec-Fetch-Mode") != "navigate" {
			return errorf(http.StatusForbidden, "cross-site read refused")
		}
		return nil
	}
	if site != "" && site != "same-origin" && site != "none" {
		return errorf(http.StatusForbidden, "refused a %s request from another site (Sec-Fetch-Site: %s)", r.Method, site)
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		if origin != "http://"+r.Host && origin != "https://"+r.Host {
			return errorf(http.StatusForbidden, "refused a %s request from origin %q: the panel takes controls only from its own page", r.Method, origin)
		}
	}
	got := r.Header.Get(TokenHeader)
	if subtle.ConstantTimeCompare([]byte(got), []byte(g.token)) != 1 {
		return errorf(http.StatusForbidden, "missing or wrong %s header: controls are taken only from the panel's own page (reload it if the server was restarted)", TokenHeader)
	}
	return nil
}

// localPort returns the port r came in on, or "PORT" if it is not known
// (a handler called without a server).
func localPort(r *http.Request) string {
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if _, port, err := net.SplitHostPort(a.String()); err == nil && port != "" {
			return port
		}
	}
	return "PORT"
}

// refuse answers a request with err without reading its body. The
// connection is closed after the answer: otherwise the server would read
// the rest of the body first, as slowly as the client sends it.
func refuse(w http.ResponseWriter, r *http.Request, err error) {
	if r.ContentLength != 0 {
		w.Header().Set("Connection", "close")
	}
	writeError(w, err)
}

// limit wraps h so that at most cap(slots) requests run it at once; the
// others are answered 503 at once with a message naming what.
func (g *guard) limit(slots chan struct{}, what string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
			h(w, r)
		default:
			w.Header().Set("Retry-After", "1")
			refuse(w, r, errorf(http.StatusServiceUnavailable, "too many %s at once (the limit is %d); try again shortly", what, cap(slots)))
		}
	}
}

// bodyDeadline gives r's body until the upload timeout to arrive. It
// returns false if the connection cannot take a deadline (as in tests that
// call the handler directly).
func (g *guard) bodyDeadline(w http.ResponseWriter) bool {
	return http.NewResponseController(w).SetReadDeadline(time.Now().Add(g.bodyTimeout)) == nil
}

// HTTPServer returns an http.Server that serves the panel with the time
// limits the guard relies on: a request's headers must arrive within 10 s
// (or Config.ReadTimeout if shorter), its headers and body within
// Config.ReadTimeout (an upload's body has Config.UploadTimeout from when
// it is admitted), and a kept-alive connection is closed after 2 minutes
// without a request. Without the read timeout a client that announces a
// body and sends part of it would hold its connection for ever. Set the
// server's Addr, or call its Serve with a listener.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: min(readHeaderTimeout, s.guard.readTimeout),
		ReadTimeout:       s.guard.readTimeout,
		IdleTimeout:       idleTimeout,
	}
}

// decodeSlot waits for a decoding slot; release it by calling the returned
// function. It fails if the request is abandoned while waiting.
func (g *guard) decodeSlot(ctx context.Context) (release func(), err error) {
	select {
	case g.decodes <- struct{}{}:
		return func() { <-g.decodes }, nil
	case <-ctx.Done():
		return nil, errorf(http.StatusServiceUnavailable, "the upload was abandoned while waiting to be decoded")
	}
}

// page serves the static files, writing the token into every HTML page.
func (g *guard) page(files fs.FS) http.Handler {
	plain := http.FileServerFS(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" || strings.HasSuffix(name, "/") {
			name += "index.html"
		}
		if !strings.HasSuffix(name, ".html") {
			plain.ServeHTTP(w, r)
			return
		}
		b, err := fs.ReadFile(files, name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		meta := []byte(`<meta name="mark1-token" content="` + g.token + `">`)
		if i := bytes.Index(bytes.ToLower(b), []byte("<head>")); i >= 0 {
			i += len("<head>")
			b = append(b[:i:i], append(append([]byte("\n"), meta...), b[i:]...)...)
		} else {
			b = append(meta, b...)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store") // the token changes with every start
		w.Write(b)
	})
}
