package panel

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mark1/images"
	"mark1/machine"
	"mark1/response"
)

// newPanel returns a panel on a fresh mark1 machine for the shapes task,
// served by a test server; both are closed when the test ends.
func newPanel(t *testing.T, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	if cfg.Machine == nil {
		cfg.Machine = presetMachine(t, taskClasses("shapes"), 1, false)
	}
	if cfg.Task == "" {
		cfg.Task = "shapes"
	}
	if cfg.PerClass == 0 {
		cfg.PerClass = 10
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(p)
	ts.Config = p.HTTPServer() // the time limits the panel is served with
	ts.Start()
	t.Cleanup(func() {
		p.Close()
		ts.Close()
	})
	return p, ts
}

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y := h / 4; y < 3*h/4; y++ {
		for x := w / 4; x < 3*w/4; x++ {
			img.SetGray(x, y, color.Gray{0})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

type stateReply struct {
	Seq       uint64    `json:"seq"`
	Running   bool      `json:"running"`
	Pulses    int64     `json:"pulses"`
	Positions []float32 `json:"positions"`
	Moved     []int     `json:"moved"`
	Message   string    `json:"message"`
	Epoch     int       `json:"epoch"`
	Done      bool      `json:"done"`
	Trained   bool      `json:"trained"`
	Status    string    `json:"status"`
	Summary   string    `json:"summary"`
	History   []struct {
		Epoch    int `json:"epoch"`
		Mistakes int `json:"mistakes"`
	} `json:"history"`
	Retina *struct {
		Class     int    `json:"class"`
		ClassName string `json:"class_name"`
		Label     int    `json:"label"`
		Source    string `json:"source"`
	} `json:"retina"`
	Error  string `json:"error"`
	Recipe struct {
		Rule string `json:"rule"`
	} `json:"recipe"`
}

// pageToken reads the request token from the page at base, as the page's
// own script does.
func pageToken(t *testing.T, base string) string {
	t.Helper()
	res, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	m := regexp.MustCompile(`<meta name="mark1-token" content="([0-9a-f]+)">`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("the page carries no token")
	}
	return string(m[1])
}

// post sends body to url as the panel's page does, with the token.
func post(t *testing.T, url, ctype string, body []byte) (int, stateReply) {
	t.Helper()
	base := url[:strings.Index(url, "/api/")]
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", ctype)
	req.Header.Set(TokenHeader, pageToken(t, base))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var s stateReply
	if err := json.NewDecoder(res.Body).Decode(&s); err != nil {
		t.Fatalf("POST %s: answer is not JSON: %v", url, err)
	}
	return res.StatusCode, s
}

func TestUploadLimits(t *testing.T) {
	_, ts := newPanel(t, Config{MaxUpload: 2000})
	tests := []struct {
		name   string
		body   []byte
		status int
		want   string
	}{
		{"picture", pngBytes(t, 40, 40), http.StatusOK, ""},
		{"text", []byte("hello, this is not a picture at all"), http.StatusUnsupportedMediaType, "not a picture"},
		{"empty", nil, http.StatusUnsupportedMediaType, "not a picture (empty file"},
		{"huge", bytes.Repeat([]byte{0x89}, 5000), http.StatusRequestEntityTooLarge, "larger than the upload limit of 2000 bytes"},
	}
	for _, tt := range tests {
		status, s := post(t, ts.URL+"/api/upload?name="+tt.name+".png", "application/octet-stream", tt.body)
		if status != tt.status {
			t.Errorf("%s: status %d; want %d (%s)", tt.name, status, tt.status, s.Error)
		}
		if tt.want != "" && !strings.Contains(s.Error, tt.want) {
			t.Errorf("%s: error %q; want it to say %q", tt.name, s.Error, tt.want)
		}
		if tt.want != "" && !strings.Contains(s.Error, tt.name+".png") {
			t.Errorf("%s: error %q does not name the file", tt.name, s.Error)
		}
		if tt.status == http.StatusOK && (s.Retina == nil || s.Retina.ClassName == "" || s.Retina.Label != -1) {
			t.Errorf("%s: no prediction in %+v", tt.name, s.Retina)
		}
	}
}

func TestPixelLimit(t *testing.T) {
	_, ts := newPanel(t, Config{Limits: images.Limits{MaxPixels: 100}})
	status, s := post(t, ts.URL+"/api/upload?name=big.png", "application/octet-stream", pngBytes(t, 40, 40))
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(s.Error, "exceeds the limit") {
		t.Errorf("status %d, error %q; want 413 and the pixel limit", status, s.Error)
	}
}

func TestStepForceAndTask(t *testing.T) {
	_, ts := newPanel(t, Config{})
	status, s := post(t, ts.URL+"/api/force", "application/json", []byte(`{"class": 1}`))
	if status != http.StatusConflict {
		t.Errorf("force with no card: status %d; want 409 (%s)", status, s.Error)
	}
	if status, s = post(t, ts.URL+"/api/present", "", nil); status != 200 || s.Retina == nil || s.Pulses != 0 {
		t.Fatalf("present: status %d, %+v", status, s)
	}
	status, s = post(t, ts.URL+"/api/force", "application/json", []byte(`{"class": 2}`))
	if status != 200 || len(s.Moved) == 0 || s.Pulses == 0 || !strings.Contains(s.Message, "Forced \"diamond\"") {
		t.Errorf("force: status %d, %d pots moved, %d pulses, %q", status, len(s.Moved), s.Pulses, s.Message)
	}
	for range 50 {
		if status, s = post(t, ts.URL+"/api/step", "", nil); status != 200 {
			t.Fatalf("step: status %d", status)
		}
	}
	if s.Epoch < 2 {
		t.Errorf("after 50 steps over 32 cards: epoch %d; want 2", s.Epoch)
	}
	if status, s = post(t, ts.URL+"/api/task", "application/json", []byte(`{"task": "leftright"}`)); status != 200 || s.Pulses != 0 {
		t.Errorf("task: status %d, pulses %d (%s)", status, s.Pulses, s.Error)
	}
	if status, s = post(t, ts.URL+"/api/task", "application/json", []byte(`{"task": "nope"}`)); status != 400 || !strings.Contains(s.Error, "unknown task") {
		t.Errorf("unknown task: status %d, %q", status, s.Error)
	}
	res, err := http.Get(ts.URL + "/api/dials.png")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(res.Body)
	res.Body.Close()
	if err != nil || img.Bounds().Dx() < 500 {
		t.Errorf("dials.png: %v", err)
	}
	res, err = http.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !bytes.Contains(page, []byte("Mark I Perceptron")) {
		t.Errorf("index page: %.200s", page)
	}
}

// readEvents reads state events from an event stream until n arrived or
// the context ends, and returns their sequence numbers.
func readEvents(ctx context.Context, url string, n int, ready *sync.WaitGroup) ([]uint64, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		ready.Done()
		return nil, err
	}
	defer res.Body.Close()
	var seqs []uint64
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	first := true
	for sc.Scan() {
		line := sc.Text()
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var s stateReply
		if err := json.Unmarshal([]byte(data), &s); err != nil {
			return seqs, err
		}
		seqs = append(seqs, s.Seq)
		if first {
			ready.Done()
			first = false
		}
		if len(seqs) >= n {
			return seqs, nil
		}
	}
	return seqs, sc.Err()
}

func TestSeveralEventStreams(t *testing.T) {
	p, ts := newPanel(t, Config{Delay: NoDelay})
	const clients = 4
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var ready, done sync.WaitGroup
	ready.Add(clients)
	got := make([][]uint64, clients)
	errs := make([]error, clients)
	for i := range clients {
		done.Add(1)
		go func() {
			defer done.Done()
			got[i], errs[i] = readEvents(ctx, ts.URL+"/api/events", 6, &ready)
		}()
	}
	ready.Wait()
	if n := p.hub.count(); n != clients {
		t.Errorf("%d subscribers; want %d", n, clients)
	}
	// Step the machine until every tab has seen six states: free-running
	// training may converge, and the hub coalesces states a slow tab has
	// not read yet, so a fixed number of broadcasts would make this flaky.
	finished := make(chan struct{})
	go func() { done.Wait(); close(finished) }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for stepping := true; stepping; {
		select {
		case <-finished:
			stepping = false
		case <-ctx.Done():
			stepping = false
		case <-tick.C:
			post(t, ts.URL+"/api/step", "", nil)
		}
	}
	<-finished
	for i := range clients {
		if errs[i] != nil {
			t.Errorf("client %d: %v", i, errs[i])
		}
		if len(got[i]) < 6 {
			t.Errorf("client %d: %d events; want 6", i, len(got[i]))
		}
		for j := 1; j < len(got[i]); j++ {
			if got[i][j] <= got[i][j-1] {
				t.Errorf("client %d: event %d has seq %d after %d", i, j, got[i][j], got[i][j-1])
			}
		}
	}
	status, s := post(t, ts.URL+"/api/step", "", nil)
	if status != 200 || s.Running || s.Pulses == 0 {
		t.Errorf("after stepping: status %d, running %v, %d pulses", status, s.Running, s.Pulses)
	}
}

// TestCloseEndsStreams checks that Close ends open event streams, so a
// server can shut down.
func TestCloseEndsStreams(t *testing.T) {
	p, ts := newPanel(t, Config{})
	post(t, ts.URL+"/api/run", "", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var ready sync.WaitGroup
	ready.Add(1)
	done := make(chan error, 1)
	go func() {
		_, err := readEvents(ctx, ts.URL+"/api/events", 1<<30, &ready)
		done <- err
	}()
	ready.Wait()
	p.Close()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("the event stream did not end after Close")
	}
	res, err := http.Get(ts.URL + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("events after Close: status %d; want 503", res.StatusCode)
	}
}

// TestPhoneUpload uploads, with the default limits, a 12-megapixel colour
// JPEG of a few megabytes, the size a phone takes: it is accepted and shown.
func TestPhoneUpload(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes a 12-megapixel JPEG")
	}
	const w, h = 4000, 3000
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	state := uint32(1)
	for i := 0; i < len(m.Pix); i += 4 {
		state = state*1664525 + 1013904223 // grain, so the file is photo-sized
		x, y := (i/4)%w, (i/4)/w
		v := uint8(200 - 40*y/h + int(state>>27))
		if x > w/3 && x < 2*w/3 && y > h/3 && y < 2*h/3 {
			v = 30 + uint8(state>>27)
		}
		m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = v, v, v-10, 255
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 92}); err != nil {
		t.Fatal(err)
	}
	t.Logf("phone JPEG: %d bytes", b.Len())
	if b.Len() < 3<<20 {
		t.Fatalf("test photo is %d bytes; want a phone-sized 3–6 MB", b.Len())
	}
	_, ts := newPanel(t, Config{})
	status, s := post(t, ts.URL+"/api/upload?name=phone.jpg", "application/octet-stream", b.Bytes())
	if status != http.StatusOK || s.Retina == nil || !strings.Contains(s.Message, "phone.jpg on the retina") {
		t.Fatalf("12 MP phone JPEG of %d bytes: status %d, error %q", b.Len(), status, s.Error)
	}
}

// The panel trains a loaded machine by the recipe in its file: a γ-system,
// three-pulse recipe on e-f, stepped card by card through the panel, gives
// exactly the machine that a machine.Session gives, card for card; and the
// panel saves it to the path it was given.
func TestPanelTrainsByTheFilesRecipe(t *testing.T) {
	recipe := machine.Recipe{Data: images.Source{Task: "e-f", PerClass: 6, TestSplit: 0.25, Seed: 7},
		Values: machine.Gamma, Pulses: 3, MaxEpochs: 4}
	m := presetMachine(t, taskClasses("e-f"), 7, false)
	m.Recipe = &recipe
	path := t.TempDir() + "/m.json"
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	load := func() *machine.Machine {
		m, err := machine.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	// The reference: a session on another copy of the same file.
	ref := load()
	tr, te, err := ref.Recipe.Load(ref.Classes, path, images.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := machine.NewSession(ref, *ref.Recipe, ref.Fields(tr), ref.Fields(te))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir() + "/saved.json"
	p, err := New(Config{Machine: load(), SavePath: out, Delay: NoDelay})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ts := httptest.NewServer(p)
	defer ts.Close()
	var r machine.Response
	for step := 0; !sess.Done(); step++ {
		if _, err := sess.Step(&r); err != nil {
			t.Fatal(err)
		}
		if code, _ := post(t, ts.URL+"/api/step", "application/json", nil); code != http.StatusOK {
			t.Fatalf("step %d: status %d", step, code)
		}
		p.mu.Lock()
		same := slices.Equal(p.m.Bank.State().Positions, ref.Bank.State().Positions) && len(p.m.History) == len(ref.History)
		p.mu.Unlock()
		if !same {
			t.Fatalf("step %d: the panel's machine differs from the session's", step)
		}
	}
	if len(ref.History) == 0 {
		t.Fatal("the reference session trained no epoch")
	}
	if code, _ := post(t, ts.URL+"/api/save", "application/json", nil); code != http.StatusOK {
		t.Fatalf("save: status %d", code)
	}
	saved, err := machine.Load(out)
	if err != nil {
		t.Fatalf("the panel's save: %v", err)
	}
	var a, b bytes.Buffer
	saved.Encode(&a)
	ref.Encode(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the machine the panel saved is not the session's")
	}
}

// TestUploadTurnsPhoto uploads a JPEG whose EXIF orientation is 6 (a phone
// held upright): the retina sees the picture turned upright, as
// images.DecodeGray returns it, not as its rows are stored.
func TestUploadTurnsPhoto(t *testing.T) {
	file, err := os.ReadFile("testdata/orientation-6.jpg")
	if err != nil {
		t.Fatal(err)
	}
	p, ts := newPanel(t, Config{})
	req, _ := http.NewRequest("POST", ts.URL+"/api/upload?name=phone.jpg", bytes.NewReader(file))
	req.Header.Set(TokenHeader, pageToken(t, ts.URL))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var s struct {
		Retina struct {
			Field []float32 `json:"field"`
		} `json:"retina"`
	}
	if err := json.NewDecoder(res.Body).Decode(&s); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("upload: status %d, %v", res.StatusCode, err)
	}
	upright, err := images.DecodeGray(bytes.NewReader(file), "phone.jpg", images.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := jpeg.Decode(bytes.NewReader(file)) // ignores EXIF
	if err != nil {
		t.Fatal(err)
	}
	y := stored.(*image.YCbCr)
	asStored := &image.Gray{Pix: y.Y, Stride: y.YStride, Rect: y.Rect}
	if upright.Rect.Dx() != asStored.Rect.Dy() {
		t.Fatalf("upright %v, stored %v: not turned", upright.Rect, asStored.Rect)
	}
	want, wrong := p.m.Retina.Fit(nil, upright), p.m.Retina.Fit(nil, asStored)
	// The panel sends light levels rounded for the page: compare within
	// 0.01.
	far := func(a, b []float32) (n int) {
		for i := range a {
			if math.Abs(float64(a[i]-b[i])) > 0.01 {
				n++
			}
		}
		return n
	}
	if len(s.Retina.Field) != len(want) || far(s.Retina.Field, want) > 0 || far(s.Retina.Field, wrong) < 20 {
		t.Errorf("the panel's retina does not see the photo upright: %d cells differ from the upright picture's, %d from the stored one's",
			far(s.Retina.Field, want), far(s.Retina.Field, wrong))
	}
}

// TestModeSwitch: the mode switch trains the same machine on by another
// rule (pots and history kept), and refuses a 1958 mode the machine's
// R-units cannot carry.
func TestModeSwitch(t *testing.T) {
	_, binary := newPanel(t, Config{})
	if status, s := post(t, binary.URL+"/api/mode", "application/json", []byte(`{"rule": "spontaneous"}`)); status != 400 || !strings.Contains(s.Error, "one-per-class") {
		t.Errorf("spontaneous on the binary code: status %d, %q; want 400 and why", status, s.Error)
	}
	m := onePerClass(t, 1)
	_, ts := newPanel(t, Config{Machine: m, Task: "leftright"})
	var s stateReply
	for range 5 {
		_, s = post(t, ts.URL+"/api/step", "", nil)
	}
	before := s.Pulses
	status, s := post(t, ts.URL+"/api/mode", "application/json", []byte(`{"rule": "spontaneous"}`))
	if status != 200 || s.Recipe.Rule != "spontaneous" || s.Pulses != before {
		t.Fatalf("mode: status %d, rule %q, pulses %d (before %d), %q", status, s.Recipe.Rule, s.Pulses, before, s.Error)
	}
	if _, s = post(t, ts.URL+"/api/step", "", nil); s.Pulses <= before {
		t.Errorf("a spontaneous step sent no pulses (%d, before %d)", s.Pulses, before)
	}
	if status, s = post(t, ts.URL+"/api/mode", "application/json", []byte(`{"rule": "sleep"}`)); status != 400 || !strings.Contains(s.Error, "unknown training rule") {
		t.Errorf("unknown mode: status %d, %q", status, s.Error)
	}
}

// onePerClass returns the mark1 preset with one R-unit per class for
// leftright's two classes, from seed.
func onePerClass(t *testing.T, seed uint64) *machine.Machine {
	return presetMachine(t, []string{"left", "right"}, seed, true)
}

// presetMachine returns a fresh mark1 preset machine for classes from
// seed, with one R-unit per class if onePer (else the binary code).
func presetMachine(t *testing.T, classes []string, seed uint64, onePer bool) *machine.Machine {
	t.Helper()
	mc, err := machine.Preset("mark1")
	if err != nil {
		t.Fatal(err)
	}
	if onePer {
		mc.Response.Code = response.OnePerClass
	}
	m, err := machine.New(mc, classes, machine.SeedsFrom(seed), nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// taskClasses returns the classes of a built-in task.
func taskClasses(task string) []string {
	info, _ := images.LookupTask(task)
	return info.Classes
}

// spontaneousPanel returns a panel on a one-per-class machine for
// leftright, switched to spontaneous learning.
func spontaneousPanel(t *testing.T, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	m := onePerClass(t, 3)
	cfg.Machine, cfg.Task = m, "leftright"
	p, ts := newPanel(t, cfg)
	if status, s := post(t, ts.URL+"/api/mode", "application/json", []byte(`{"rule": "spontaneous"}`)); status != 200 {
		t.Fatalf("mode spontaneous: status %d, %q", status, s.Error)
	}
	return p, ts
}

// clusterReply is an epoch of the state's history with its clusters.
type clusterReply struct {
	History []struct {
		Epoch    int `json:"epoch"`
		Clusters *struct {
			Purity     float64  `json:"purity"`
			Chance     float64  `json:"chance"`
			Responses  int      `json:"responses"`
			Of         int      `json:"of"`
			Collapsed  bool     `json:"collapsed"`
			TestPurity *float64 `json:"test_purity"`
		} `json:"clusters"`
	} `json:"history"`
	Message string `json:"message"`
	Cards   int    `json:"cards"`
}

// TestSpontaneousClusters: in spontaneous mode the panel's step message
// calls no response right or wrong, and each epoch's record carries how the
// responses split the cards against the hidden classes — the same numbers
// machine.ClustersOf gives for the machine as it stands; a mode switch
// keeps them, a reset drops them.
func TestSpontaneousClusters(t *testing.T) {
	p, ts := spontaneousPanel(t, Config{})
	state := func() clusterReply {
		res, err := http.Get(ts.URL + "/api/state")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var c clusterReply
		if err := json.NewDecoder(res.Body).Decode(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	cards := state().Cards
	for range 2 * cards {
		if status, s := post(t, ts.URL+"/api/step", "", nil); status != 200 || strings.Contains(s.Message, "wrong") || strings.Contains(s.Message, "right;") ||
			!strings.Contains(s.Message, "not told") {
			t.Fatalf("spontaneous step: status %d, message %q; want no right or wrong", status, s.Message)
		}
	}
	c := state()
	if len(c.History) != 2 || c.History[0].Clusters == nil || c.History[1].Clusters == nil {
		t.Fatalf("after two epochs, history %+v; want the clusters of each", c.History)
	}
	got := c.History[1].Clusters
	p.mu.Lock()
	tr, te := p.sess.Train(), p.sess.Test()
	want, wantTest := p.m.ClustersOf(tr.X, tr.Y), p.m.ClustersOf(te.X, te.Y)
	p.mu.Unlock()
	if got.Purity != want.Purity || got.Chance != want.Chance || got.Responses != want.Responses || got.Of != 2 || got.Collapsed != want.Collapsed ||
		got.TestPurity == nil || *got.TestPurity != wantTest.Purity {
		t.Errorf("epoch 2's clusters %+v; machine.ClustersOf gives %+v, held out %+v", *got, want, wantTest)
	}
	if status, s := post(t, ts.URL+"/api/mode", "application/json", []byte(`{"rule": "trial-and-error"}`)); status != 200 {
		t.Fatalf("mode trial-and-error: %d %q", status, s.Error)
	}
	if c := state(); len(c.History) != 2 || c.History[1].Clusters == nil || c.History[1].Clusters.Purity != want.Purity {
		t.Errorf("after a mode switch the history's clusters are %+v; want epoch 2's kept", c.History)
	}
	if status, s := post(t, ts.URL+"/api/reset", "", nil); status != 200 {
		t.Fatalf("reset: %d %q", status, s.Error)
	}
	if c := state(); len(c.History) != 0 || len(p.clusters) != 0 {
		t.Errorf("after a reset: history %+v, %d clusters kept; want none", c.History, len(p.clusters))
	}
}
