package cli

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServeAllowRemote serves on every interface with --allow-remote: a
// warning is printed, the panel answers under a loopback name and under
// one of this computer's own addresses, and still refuses a foreign Host.
func TestServeAllowRemote(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	errR, errW := io.Pipe()
	exit := make(chan int, 1)
	go func() {
		exit <- Main(ctx, []string{"serve", "--addr", "0.0.0.0:0", "--allow-remote", "--n", "5"}, strings.NewReader(""), outW, errW)
		outW.Close()
		errW.Close()
	}()
	warn := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(errR).ReadString('\n')
		warn <- line
		io.Copy(io.Discard, errR)
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no address: %v", err)
	}
	go io.Copy(io.Discard, outR)
	select {
	case w := <-warn:
		if !strings.Contains(w, "warning") || !strings.Contains(w, "--allow-remote") {
			t.Errorf("warning %q", w)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no warning printed")
	}
	_, rest, _ := strings.Cut(line, "http://")
	hostport := strings.TrimSuffix(strings.Fields(rest)[0], "/")
	_, port, _ := strings.Cut(hostport, "]:")
	if port == "" {
		_, port, _ = strings.Cut(hostport, ":")
	}
	client := &http.Client{Timeout: 5 * time.Second}
	for _, tt := range []struct {
		host string
		want int
	}{
		{"localhost:" + port, 200},
		{"127.0.0.1:" + port, 200},
		{"evil.example:" + port, 421},
	} {
		req, _ := http.NewRequest("GET", "http://127.0.0.1:"+port+"/api/state", nil)
		req.Host = tt.host
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tt.want {
			t.Errorf("Host %s: status %d; want %d", tt.host, res.StatusCode, tt.want)
		}
	}
	hosts, remote, err := serveHosts("0.0.0.0:0")
	if err != nil || !remote || len(hosts) == 0 {
		t.Fatalf("serveHosts: %v %v %v", hosts, remote, err)
	}
	req, _ := http.NewRequest("GET", "http://127.0.0.1:"+port+"/api/state", nil)
	req.Host = net.JoinHostPort(hosts[len(hosts)-1], port) // one of this computer's addresses
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("Host %s (this computer): status %d; want 200", req.Host, res.StatusCode)
	}
	cancel()
	select {
	case <-exit:
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}
