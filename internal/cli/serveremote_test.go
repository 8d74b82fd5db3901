package cli

import (
	"bufio"
	"context"
	"io"
	"mark1/panel"
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
	_, hosts, remote, err := panel.ListenAddr("0.0.0.0:0")
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

// TestServeFlagMessages gives serve one bad value at a time: each is
// refused (exit 2) with a message that names that flag, its value and the
// values it takes, and no other flag.
func TestServeFlagMessages(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--n", "0"}, []string{"--n 0 out of range: want [1, 10000]"}},
		{[]string{"--n", "-5"}, []string{"--n -5 out of range: want [1, 10000]"}},
		{[]string{"--n", "10001"}, []string{"--n 10001 out of range: want [1, 10000]"}},
		{[]string{"--max-upload", "0"}, []string{"--max-upload 0 out of range: want at least 1"}},
		{[]string{"--max-upload", "-1"}, []string{"--max-upload -1 out of range: want at least 1"}},
		{[]string{"--max-pixels", "-5"}, []string{"--max-pixels -5", "a positive number of pixels"}},
		{[]string{"--max-pixels", "0"}, []string{"--max-pixels 0", "a positive number of pixels"}},
		{[]string{"--delay", "-1s"}, []string{"--delay -1s out of range: want a duration in [0s, 10s]"}},
		{[]string{"--delay", "-1ns"}, []string{"--delay -1ns out of range: want a duration in [0s, 10s]"}},
		// The panel's speed control never went over 10 s; --delay did.
		{[]string{"--delay", "11s"}, []string{"--delay 11s out of range: want a duration in [0s, 10s]"}},
		{[]string{"--upload-timeout", "0s"}, []string{"--upload-timeout 0s out of range: want a positive duration"}},
		{[]string{"--upload-timeout", "-1s"}, []string{"--upload-timeout -1s out of range: want a positive duration"}},
		{[]string{"--addr", "256.0.0.1:0"}, []string{`--addr "256.0.0.1:0"`, "not a valid IP address"}},
		{[]string{"--addr", "1.2.3:0"}, []string{"not a valid IP address"}},
	} {
		code, _, errs := run(t, dir, append([]string{"serve"}, c.args...)...)
		if code != 2 {
			t.Errorf("serve %s: exit %d; want 2 (%s)", strings.Join(c.args, " "), code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("serve %s: %q lacks %q", strings.Join(c.args, " "), errs, w)
			}
		}
		for _, flag := range []string{"--n ", "--max-upload", "--max-pixels", "--delay", "--upload-timeout", "other computers"} {
			if !strings.Contains(c.args[0]+" ", flag) && strings.Contains(errs, flag) {
				t.Errorf("serve %s: %q also names %q", strings.Join(c.args, " "), errs, flag)
			}
		}
	}
}

// TestServeLoopbackNames serves on loopback names spelt in capitals and
// with a trailing dot, with and without --allow-remote: each is served,
// and no warning says it is reachable from other computers.
func TestServeLoopbackNames(t *testing.T) {
	for _, args := range [][]string{
		{"--addr", "LOCALHOST:0"},
		{"--addr", "localhost.:0", "--allow-remote"},
		{"--addr", "127.0.0.1:0", "--allow-remote"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		outR, outW := io.Pipe()
		var stderr strings.Builder
		exit := make(chan int, 1)
		go func() {
			exit <- Main(ctx, append([]string{"serve", "--n", "5"}, args...), strings.NewReader(""), outW, &stderr)
			outW.Close()
		}()
		line, err := bufio.NewReader(outR).ReadString('\n')
		go io.Copy(io.Discard, outR)
		cancel()
		select {
		case <-exit:
		case <-time.After(10 * time.Second):
			t.Fatalf("serve %v did not stop", args)
		}
		if err != nil || !strings.Contains(line, "http://127.0.0.1:") && !strings.Contains(line, "http://[::1]:") {
			t.Errorf("serve %v: %q %v (stderr %q); want it served on loopback", args, line, err, stderr.String())
		}
		if strings.Contains(stderr.String(), "other computers") {
			t.Errorf("serve %v warned: %q", args, stderr.String())
		}
	}
}
