package panel

import (
	"strings"
	"testing"
)

// TestListenAddr checks how a listening address is read: host names without regard to
// case or a trailing dot, loopback addresses as such, and an address that
// is not one refused as invalid rather than as reachable.
func TestListenAddr(t *testing.T) {
	for _, c := range []struct {
		addr, listen string
		hosts        []string
		remote       bool
		err          string
	}{
		{"localhost:8080", "localhost:8080", nil, false, ""},
		{"LOCALHOST:8080", "localhost:8080", nil, false, ""},
		{"localhost.:8080", "localhost:8080", nil, false, ""},
		{"LocalHost.:0", "localhost:0", nil, false, ""},
		{"127.0.0.1:80", "127.0.0.1:80", nil, false, ""},
		{"127.9.9.9:80", "127.9.9.9:80", nil, false, ""},
		{"[::1]:80", "[::1]:80", nil, false, ""},
		{"192.0.2.1:80", "192.0.2.1:80", []string{"192.0.2.1"}, true, ""},
		{"Panel.Example.:80", "Panel.Example.:80", []string{"panel.example"}, true, ""},
		{"256.0.0.1:80", "", nil, false, "not a valid IP address"},
		{"1.2.3:80", "", nil, false, "not a valid IP address"},
		{"[::g]:80", "", nil, false, "not a valid IP address"},
		{"localhost", "", nil, false, "missing port"},
	} {
		listen, hosts, remote, err := ListenAddr(c.addr)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v; want %q", c.addr, err, c.err)
			}
			continue
		}
		if err != nil || listen != c.listen || remote != c.remote || strings.Join(hosts, " ") != strings.Join(c.hosts, " ") {
			t.Errorf("%s: %q %q %v %v; want %q %q %v", c.addr, listen, hosts, remote, err, c.listen, c.hosts, c.remote)
		}
	}
}
