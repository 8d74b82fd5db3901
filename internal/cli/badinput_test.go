package cli

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"mark1/internal/heaptest"
	"mark1/machine"
)

// pngHeader returns the signature and IHDR chunk of a w x h 8-bit grey PNG
// with no pixel data: a picture that claims to be huge but is 33 bytes.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8] = 8 // bit depth; colour type 0 (grey), no interlace
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

// idxFile returns an IDX file with the given magic and dimensions and n
// data bytes.
func idxFile(magic uint32, dims []uint32, n int) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, magic)
	for _, d := range dims {
		binary.Write(&b, binary.BigEndian, d)
	}
	b.Write(make([]byte, n))
	return b.Bytes()
}

func smallPNG(t *testing.T) []byte {
	var b bytes.Buffer
	g := image.NewGray(image.Rect(0, 0, 8, 8))
	for i := range g.Pix {
		g.Pix[i] = uint8(i * 4)
	}
	if err := png.Encode(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// gzipped returns b compressed with gzip.
// resign rewrites the machine file src as dst with edit applied to its
// "machine" member and a true checksum: a hostile file that passes the
// checksum. Numbers are kept exact (json.Number).
func resign(t *testing.T, src, dst string, edit func(m map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]json.RawMessage
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(file["machine"]))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	body, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	out := fmt.Appendf(nil, "{\"format\": %s, \"version\": %s, \"checksum\": \"sha256:%s\", \"machine\": %s}\n",
		file["format"], file["version"], hex.EncodeToString(sum[:]), body)
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func gzipped(t *testing.T, b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// sampleHeap records the peak of the live heap while a command runs.
func sampleHeap() *heaptest.Sampler { return heaptest.Start() }

// listing returns every path under dir, to check that a failed command
// wrote nothing.
func listing(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		out = append(out, p)
		return nil
	})
	slices.Sort(out)
	return out
}

// TestBadInputs feeds every reader and every command's flags malformed
// input. Each case must end with the expected exit status (1 bad input,
// 2 bad command line), a one-line message naming the file (or flag) and the
// problem, no panic, and no file written.
func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	img := smallPNG(t)
	// A good machine to point the commands at, and one trained on a folder
	// that is then removed (so its data cannot be made again).
	if code, _, errs := run(t, dir, "train", "--task", "leftright", "--n", "10", "--quiet", "--out", "good.json"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := run(t, dir, "stimuli", "--task", "leftright", "--n", "3", "--out", "gone"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := run(t, dir, "train", "--data", "gone", "--quiet", "--epochs", "1", "--out", "orphan.json"); code != 0 {
		t.Fatal(errs)
	}
	os.RemoveAll(filepath.Join(dir, "gone"))
	good, _ := os.ReadFile(filepath.Join(dir, "good.json"))

	// Pictures and folders.
	write("huge/a/big.png", pngHeader(200_000, 200_000))
	write("huge/b/ok.png", img)
	write("trunc/a/half.png", img[:len(img)/2])
	write("trunc/b/ok.png", img)
	write("oneclass/only/x.png", img)
	write("oneclass/only/y.png", img)
	write("nonutf8/a/\xff\xfe.png", []byte("not a picture"))
	write("nonutf8/b/ok.png", img)
	long := strings.Repeat("n", 300)
	os.MkdirAll(filepath.Join(dir, "loop", "a"), 0o755)
	write("loop/a/ok.png", img)
	os.Symlink(".", filepath.Join(dir, "loop", "a", "self")) // a link to its own folder
	os.MkdirAll(filepath.Join(dir, "loop2"), 0o755)
	os.Symlink("b", filepath.Join(dir, "loop2", "b")) // a link to itself
	write("loop2/a/ok.png", img)
	write("zero.png", pngHeader(0, 0))
	write("picture.png", img)

	// IDX files.
	write("magic-images-idx3-ubyte", idxFile(0x0000_0804, []uint32{1, 2, 2}, 4))
	write("magic-labels-idx1-ubyte", idxFile(0x0000_0801, []uint32{1}, 1))
	write("hugeidx-images-idx3-ubyte", idxFile(0x0000_0803, []uint32{1 << 30, 28, 28}, 10))
	write("hugeidx-labels-idx1-ubyte", idxFile(0x0000_0801, []uint32{1 << 30}, 10))
	write("empty-images-idx3-ubyte", idxFile(0x0000_0803, []uint32{0, 4, 4}, 0))
	write("empty-labels-idx1-ubyte", idxFile(0x0000_0801, []uint32{0}, 0))
	write("mismatch-images-idx3-ubyte", idxFile(0x0000_0803, []uint32{6, 2, 2}, 24))
	write("mismatch-labels-idx1-ubyte", append(idxFile(0x0000_0801, []uint32{5}, 0), 0, 1, 0, 1, 0))
	write("short-images-idx3-ubyte", idxFile(0x0000_0803, []uint32{6, 2, 2}, 10))
	write("short-labels-idx1-ubyte", append(idxFile(0x0000_0801, []uint32{6}, 0), 0, 1, 0, 1, 0, 1))
	write("nolabels-images-idx3-ubyte", idxFile(0x0000_0803, []uint32{2, 2, 2}, 8))

	// libsvm files.
	write("nan.libsvm", []byte("0 1:0.5 2:NaN 3:1 4:0\n1 1:1 2:0 3:0 4:1\n"))
	write("inf.libsvm", []byte("0 1:0.5 2:1 3:+Inf 4:0\n1 1:1 2:0 3:0 4:1\n"))
	write("label-nan.libsvm", []byte("NaN 1:0.5 2:1 3:1 4:0\n1 1:1 2:0 3:0 4:1\n"))
	write("notsquare.libsvm", []byte("0 1:1 2:1 3:1\n1 3:1\n"))
	write("bigindex.libsvm", []byte("0 1:1 999999999999:1\n1 1:1\n"))
	write("oneclass.libsvm", []byte("1 1:1 4:1\n1 2:1 3:1\n"))
	write("binary.libsvm", []byte("\x00\x01\x02 garbage"))

	// Machine files and other inputs.
	write("truncated.json", good[:len(good)/3])
	write("wrongmagic.json", bytes.Replace(good, []byte(`"mark1-machine"`), []byte(`"mark2-machine"`), 1))
	write("future.json", bytes.Replace(good, []byte(`"version": 2`), []byte(`"version": 3`), 1))
	write("edited.json", bytes.Replace(good, []byte(`"left"`), []byte(`"LEFT"`), 1))
	write("notjson.json", []byte("\x89PNG\r\n"))
	write("badconfig.json", []byte(`{"faults": {"dead_a": 7}}`))
	write("typo.json", []byte(`{"fualts": {"dead_a": 0.1}}`))
	write("plug.txt", []byte("mark1-plugboard 1\nretina 20x20\na0 theta 2 exc 99,99\n"))

	// Hostile use (issue 11): things that are not regular files where
	// inputs and outputs are expected; tiny files declaring huge data; a
	// machine file whose recorded data path names a file the user did not
	// name, holding a secret.
	if err := mkfifo(filepath.Join(dir, "fifo")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "afolder"), 0o755)
	write("huge.json", nil)
	if err := os.Truncate(filepath.Join(dir, "huge.json"), 600<<20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	write("plain.txt", []byte("x"))
	write("ten-million-images-idx3-ubyte.gz", gzipped(t, idxFile(0x0000_0803, []uint32{10_000_000, 1, 1}, 10_000_000)))
	write("tiny-images-idx3-ubyte.gz", gzipped(t, idxFile(0x0000_0803, []uint32{300_000, 1, 1}, 300_000)))
	write("tiny-labels-idx1-ubyte.gz", gzipped(t, append(idxFile(0x0000_0801, []uint32{300_000}, 0), bytes.Repeat([]byte{0, 1}, 150_000)...)))
	write("many-rows.libsvm.gz", gzipped(t, bytes.Repeat([]byte("0 1:1\n1 1:0\n"), 100_000)))
	two, _ := json.Marshal(map[string]any{"retina": map[string]any{"width": 20}})
	write("twovalues.json", append(append(two, ' '), two...))
	write("secret.libsvm", []byte("0 1:1 2:0 3:0 4:1\n1 1:0 2:1 3:1 4:0\n0 1:1 2:0 3:0 4:0\n1 1:0 2:1 3:0 4:0\n"))
	if code, _, errs := run(t, dir, "train", "--data", "secret.libsvm", "--quiet", "--epochs", "1", "--test-split", "0", "--out", "snoop.json"); code != 0 {
		t.Fatal(errs)
	}
	write("secret.libsvm", []byte("root:$6$SECRET-HASH:19000:0:99999:7:::\n"))
	// A plugboard listing one A-unit short of the machine's 512.
	if code, _, errs := run(t, dir, "wiring", "--machine", "good.json", "--out", "good-plug.txt"); code != 0 {
		t.Fatal(errs)
	}
	plug, _ := os.ReadFile(filepath.Join(dir, "good-plug.txt"))
	plug = bytes.TrimRight(plug, "\n")
	write("short-plug.txt", append(plug[:bytes.LastIndexByte(plug, '\n')], '\n'))
	// A machine file whose recipe asks for a million cards a class and
	// records a data budget of a terabyte to make room for them: the
	// command's own --max-memory bounds the data all the same.
	resign(t, filepath.Join(dir, "good.json"), filepath.Join(dir, "greedy.json"), func(m map[string]any) {
		data := m["recipe"].(map[string]any)["data"].(map[string]any)
		data["n"], data["max_bytes"], data["max_pixels"] = 1_000_000, int64(1)<<40, 1<<40
	})
	// A machine file whose recipe is out of range (issue 21: dials
	// answered "--pulses 5000 out of range", a flag dials does not have).
	resign(t, filepath.Join(dir, "good.json"), filepath.Join(dir, "pulses.json"), func(m map[string]any) {
		m["recipe"].(map[string]any)["pulses"] = 5000
	})
	if code, _, errs := run(t, dir, "train", "--task", "leftright", "--n", "5", "--quiet", "--epochs", "2", "--record", "rec", "--out", "rec.json"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := run(t, dir, "train", "--task", "leftright", "--n", "5", "--quiet", "--epochs", "2", "--record", "rec2", "--out", "rec2.json"); code != 0 {
		t.Fatal(errs)
	}
	os.Remove(filepath.Join(dir, "rec", "epoch-0001.json"))
	if err := mkfifo(filepath.Join(dir, "rec", "epoch-0001.json")); err != nil {
		t.Fatal(err)
	}

	// Issue 26: small files whose shape asks a learner for far more
	// working memory than --max-memory: 1,000 classes whose largest
	// feature index is 2²⁴ (19 kB; 134 GB of perceptron weights, a fatal
	// out-of-memory crash before), 10,000 classes of two rows (390 kB;
	// 49,995,000 one-vs-one pairs, still running after 10 minutes at
	// 4.4 GB before), and a sparse file that --scale std makes dense.
	var wide, ovo, densify strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&wide, "%d 1:1 16777216:1\n", i)
	}
	for i := range 10_000 {
		fmt.Fprintf(&ovo, "%d 1:%g 2:1\n%d 1:%g 2:0\n", i, float64(i)*1e-3, i, float64(i)*1e-3+5e-4)
	}
	for i := range 120_000 {
		fmt.Fprintf(&densify, "%d %d:%g\n", i%2, 1+i%300, 1+float64(i%97)/97)
	}
	// Outputs that would replace inputs (issue 26): data, a fitted
	// model, a link to the data, a hard link, a path spelt another way.
	write("tr.libsvm", []byte("0 1:1 2:0\n1 1:0 2:1\n0 1:1 2:0.1\n1 1:0.1 2:1\n"))
	write("te.libsvm", []byte("0 1:1 2:0\n1 1:0 2:1\n"))
	write("model.json", []byte("0 1:1 2:0\n1 1:0 2:1\n")) // data named as fit's default model
	write("lab.csv", []byte("x,y,label\n0,0,a\n1,1,b\n0,1,a\n1,0,b\n"))
	write("five.csv", []byte("x,y,label\n0,0,a\n1,1,b\n0,1,c\n1,0,d\n2,2,e\n"))
	os.Symlink("tr.libsvm", filepath.Join(dir, "trlink.libsvm"))
	os.Link(filepath.Join(dir, "tr.libsvm"), filepath.Join(dir, "trhard.libsvm"))
	if code, _, errs := run(t, dir, "fit", "--data", "tr.libsvm", "--learner", "perceptron", "--quiet", "--model", "fitted.json"); code != 0 {
		t.Fatal(errs)
	}
	// Names that would not survive a save (issue 26: Latin-1 café and
	// cafè both became "caf\ufffd", and the saved file never loaded).
	write("latin1/caf\xe9/a.png", img)
	write("latin1/caf\xe8/b.png", img)
	write("latin1.csv", []byte("x,y,label\n0,0,caf\xe9\n1,1,caf\xe8\n0,1,caf\xe9\n1,0,caf\xe8\n"))
	write("latin1.txt", []byte("0 0 caf\xe9\n1 1 caf\xe8\n"))
	// Numbers near the largest float64 (issue 26): the perceptron blamed
	// a kernel it does not have, the lab printed a raw JSON error, and
	// apply ran a model whose decision values overflowed and exited 0.
	write("huge308.libsvm", []byte("0 1:1e308 2:-1e308\n1 1:-1e308 2:1e308\n0 1:1e308 2:1e308\n1 1:-1e308 2:-1e308\n"))
	write("huge308.csv", []byte("x,y,label\n1e308,-1e308,a\n-1e308,1e308,b\n1e308,1e308,a\n-1e308,-1e308,b\n"))
	fitted, _ := os.ReadFile(filepath.Join(dir, "fitted.json"))
	var model map[string]any
	if err := json.Unmarshal(fitted, &model); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, dir, "fit", "--data", "tr.libsvm", "--quiet", "--model", "svm.json"); code != 0 {
		t.Fatal(errs)
	}
	model["machines"].([]any)[0].(map[string]any)["w"] = []float64{1e308, 1e308}
	overflowing, _ := json.Marshal(model)
	write("overflowing.json", overflowing)
	// Data changed in content but not in count since training (issue 26:
	// resume checked the counts and class names only, and went on with
	// other pictures).
	for _, out := range []string{"fpcards", "fptrain", "fptest"} {
		if code, _, errs := run(t, dir, "stimuli", "--task", "leftright", "--n", "6", "--out", out); code != 0 {
			t.Fatal(errs)
		}
	}
	if code, _, errs := run(t, dir, "train", "--data", "fpcards", "--epochs", "1", "--quiet", "--out", "fp.json"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := run(t, dir, "train", "--data", "fptrain", "--test", "fptest", "--epochs", "1", "--quiet", "--out", "fptest.json"); code != 0 {
		t.Fatal(errs)
	}
	// A file saved before the recipe had card digests: the change is
	// found, and the folder named, as before.
	old, err := machine.Load(filepath.Join(dir, "fp.json"))
	if err != nil {
		t.Fatal(err)
	}
	old.Recipe.TrainCards, old.Recipe.TestCards = nil, nil
	if err := old.Save(filepath.Join(dir, "fpold.json")); err != nil {
		t.Fatal(err)
	}
	swap := func(folder string, k int) string { // a left card replaced by a right one: the same count, other contents
		lefts, _ := os.ReadDir(filepath.Join(dir, folder, "left"))
		rights, _ := os.ReadDir(filepath.Join(dir, folder, "right"))
		b, _ := os.ReadFile(filepath.Join(dir, folder, "right", rights[0].Name()))
		changed := filepath.Join(folder, "left", lefts[k].Name())
		write(changed, b)
		return changed
	}
	fpChanged := swap("fpcards", 2)
	fpTestChanged := swap("fptest", 0)
	// The voted perceptron's history grows by a vector a mistake, which
	// the data's shape does not tell: noise it cannot separate.
	var voteNoise strings.Builder
	vrng := rand.New(rand.NewPCG(8, 9))
	for range 2000 {
		fmt.Fprintf(&voteNoise, "%d", vrng.IntN(2))
		for j := 1; j <= 200; j++ {
			fmt.Fprintf(&voteNoise, " %d:%.2f", j, vrng.Float64())
		}
		voteNoise.WriteString("\n")
	}
	write("votenoise.libsvm", []byte(voteNoise.String()))
	// A libsvm file of 3x3 pictures whose fifth row changes after
	// training: the row is named.
	var rowsBefore strings.Builder
	for i := range 10 {
		fmt.Fprintf(&rowsBefore, "%d", i%2)
		for j := 1; j <= 9; j++ {
			fmt.Fprintf(&rowsBefore, " %d:%d", j, (i*j+i%2*200)%256)
		}
		rowsBefore.WriteString("\n")
	}
	write("fprows.libsvm", []byte(rowsBefore.String()))
	if code, _, errs := run(t, dir, "train", "--data", "fprows.libsvm", "--epochs", "1", "--quiet", "--out", "fprows.json"); code != 0 {
		t.Fatal(errs)
	}
	rowsAfter := strings.Split(rowsBefore.String(), "\n")
	rowsAfter[4] = strings.Replace(rowsAfter[4], " 1:4 ", " 1:5 ", 1)
	write("fprows.libsvm", []byte(strings.Join(rowsAfter, "\n")))
	write("wide.libsvm", []byte(wide.String()))
	write("ovo.libsvm", []byte(ovo.String()))
	write("densify.libsvm", []byte(densify.String()))

	tests := []struct {
		name string
		args []string
		code int
		want []string // substrings of the message on stderr
	}{
		// An output never replaces an input, nor two outputs one file
		// (issue 26: each replaced its input, exit 0).
		{"fit --model over its --data", []string{"fit", "--data", "tr.libsvm", "--model", "tr.libsvm"}, 2, []string{"--model tr.libsvm is also --data", "refusing"}},
		{"fit --predictions over its --test", []string{"fit", "--data", "tr.libsvm", "--test", "te.libsvm", "--predictions", "te.libsvm"}, 2, []string{"--predictions te.libsvm is also --test"}},
		{"apply --predictions over its --data", []string{"apply", "--model", "fitted.json", "--data", "te.libsvm", "--predictions", "te.libsvm"}, 2, []string{"--predictions te.libsvm is also --data"}},
		{"apply --predictions over its --model", []string{"apply", "--model", "fitted.json", "--data", "te.libsvm", "--predictions", "fitted.json"}, 2, []string{"--predictions fitted.json is also --model"}},
		{"fit --libsvm-model over its --data", []string{"fit", "--data", "tr.libsvm", "--libsvm-model", "tr.libsvm"}, 2, []string{"--libsvm-model tr.libsvm is also --data"}},
		{"fit --libsvm-model and --model one file", []string{"fit", "--data", "tr.libsvm", "--libsvm-model", "Y", "--model", "Y"}, 2, []string{"--model and --libsvm-model both name Y"}},
		{"fit: the default --model is its --data", []string{"fit", "--data", "model.json"}, 2, []string{"--model model.json is also --data"}},
		{"fit --model a link to its --data", []string{"fit", "--data", "tr.libsvm", "--model", "trlink.libsvm"}, 2, []string{"--model trlink.libsvm is also --data"}},
		{"fit --model a hard link to its --data", []string{"fit", "--data", "tr.libsvm", "--model", "trhard.libsvm"}, 2, []string{"--model trhard.libsvm is also --data"}},
		{"fit --model its --data spelt another way", []string{"fit", "--data", "tr.libsvm", "--model", "afolder/../tr.libsvm"}, 2, []string{"is also --data"}},
		{"train --out over its --data", []string{"train", "--data", "tr.libsvm", "--out", "tr.libsvm"}, 2, []string{"--out tr.libsvm is also --data"}},
		{"train --out over its --test", []string{"train", "--data", "tr.libsvm", "--test", "te.libsvm", "--out", "te.libsvm"}, 2, []string{"--out te.libsvm is also --test"}},
		{"train --out over its --config", []string{"train", "--config", "badconfig.json", "--out", "badconfig.json"}, 2, []string{"--out badconfig.json is also --config"}},
		{"dials --png over its --machine", []string{"dials", "--machine", "good.json", "--png", "good.json"}, 2, []string{"--png good.json is also --machine"}},
		{"wiring --out over its --machine", []string{"wiring", "--machine", "good.json", "--out", "good.json"}, 2, []string{"--out good.json is also --machine"}},
		{"lab --png over its --data", []string{"lab", "--data", "lab.csv", "--png", "lab.csv"}, 2, []string{"--png lab.csv is also --data"}},
		{"compare --plot over its --data", []string{"compare", "--data", "tr.libsvm", "--plot", "tr.libsvm"}, 2, []string{"--plot tr.libsvm is also --data"}},
		{"ablate --plot over its --machine", []string{"ablate", "--machine", "good.json", "--plot", "good.json"}, 2, []string{"--plot good.json is also --machine"}},
		{"serve --out over its --machine", []string{"serve", "--machine", "good.json", "--out", "good.json"}, 2, []string{"--out good.json is also --machine"}},
		// Class names that are not UTF-8 are refused where they are read.
		{"class folders named in Latin-1", []string{"train", "--data", "latin1"}, 1, []string{"latin1/caf", `"caf\xe8"`, "not valid UTF-8"}},
		{"CSV labels in Latin-1 (fit)", []string{"fit", "--data", "latin1.csv"}, 1, []string{"latin1.csv:2", `"caf\xe9"`, "not valid UTF-8"}},
		{"text labels in Latin-1 (fit)", []string{"fit", "--data", "latin1.txt"}, 1, []string{"latin1.txt:1", "not valid UTF-8"}},
		{"CSV labels in Latin-1 (compare)", []string{"compare", "--data", "latin1.csv"}, 1, []string{"latin1.csv:2", "not valid UTF-8"}},
		{"CSV labels in Latin-1 (lab)", []string{"lab", "--data", "latin1.csv"}, 1, []string{"latin1.csv:2", "not valid UTF-8"}},
		// A resume sees changed data.
		{"resume on cards changed since training: the picture named", []string{"train", "--resume", "fp.json", "--epochs", "3", "--out", "fp2.json"}, 1, []string{"fp.json", "the data changed since training", fpChanged, "is not the one trained on"}},
		{"resume on held-out cards changed since training: the picture named", []string{"train", "--resume", "fptest.json", "--epochs", "3", "--out", "fp2.json"}, 1, []string{"fptest.json", fpTestChanged, "held-out card", "is not the one trained on"}},
		{"dials on cards changed since training: the picture named", []string{"dials", "--machine", "fp.json", "--view", "sensitivity", "--png", "fpd.png"}, 1, []string{"fp.json", fpChanged, "is not the one trained on"}},
		{"ablate on cards changed since training: the picture named", []string{"ablate", "--machine", "fp.json", "--plot", "fpa.png"}, 1, []string{"fp.json", fpChanged, "is not the one trained on"}},
		{"resume on changed cards, a file without card digests: the folder named", []string{"train", "--resume", "fpold.json", "--epochs", "3", "--out", "fp2.json"}, 1, []string{"fpold.json", "cards from fpcards", "not the same"}},
		// Numbers stay finite; every count flag has one range.
		{"fit perceptron on values of ±1e308", []string{"fit", "--data", "huge308.libsvm", "--learner", "perceptron"}, 1, []string{"huge308.libsvm: perceptron", "row 3", "not a finite number", "scale them"}},
		{"fit batch-gd on values of ±1e308", []string{"fit", "--data", "huge308.libsvm", "--learner", "batch-gd"}, 1, []string{"huge308.libsvm: batchgd", "not a finite number"}},
		{"fit kernel-perceptron on values of ±1e308", []string{"fit", "--data", "huge308.libsvm", "--learner", "kernel-perceptron", "--kernel", "linear"}, 1, []string{"kernel perceptron", "not a finite number"}},
		{"apply a kernel SVM to values of ±1e308 (its decision values were NaN, exit 0)", []string{"apply", "--model", "svm.json", "--data", "huge308.libsvm"}, 1, []string{"svm.json", "huge308.libsvm: row 1", "not a finite number"}},
		{"apply a model whose decision values overflow", []string{"apply", "--model", "overflowing.json", "--data", "huge308.libsvm"}, 1, []string{"overflowing.json", "huge308.libsvm: row 1", "not a finite number"}},
		{"fit --epochs beyond train's range", []string{"fit", "--data", "tr.libsvm", "--learner", "perceptron", "--epochs", "1000001"}, 2, []string{"--epochs 1000001", "[1, 1000000]"}},
		{"compare --epochs beyond train's range", []string{"compare", "--task", "leftright", "--epochs", "1000001"}, 2, []string{"--epochs", "1000001", "1000000]"}},
		{"train --epochs beyond its range", []string{"train", "--epochs", "1000001"}, 2, []string{"--epochs 1000001", "[1, 1000000]"}},
		{"lab --data of ±1e308 --json", []string{"lab", "--data", "huge308.csv", "--json"}, 1, []string{"huge308.csv", "point 1", "beyond ±10⁶"}},
		{"lab --start 1e308,1e308", []string{"lab", "--start", "1e308,1e308"}, 2, []string{"--start", "beyond ±10⁶"}},
		{"lab --eps 1e308", []string{"lab", "--eps", "1e308"}, 2, []string{"--eps 1e+308", "within ±10⁶"}},
		// One word, one meaning: loss's values depend on the learner, sgd is the lab's.
		{"lab sgd --loss squared-hinge", []string{"lab", "--learner", "sgd", "--loss", "squared-hinge"}, 2, []string{"--loss squared-hinge", "perceptron, hinge, logistic, squared for sgd"}},
		{"fit linear-svm --loss logistic", []string{"fit", "--data", "lab.csv", "--learner", "linear-svm", "--loss", "logistic"}, 2, []string{"--loss logistic", "hinge, squared-hinge for linear-svm"}},
		{"lab --data of 5 classes", []string{"lab", "--data", "five.csv"}, 1, []string{"five.csv", "5 classes", "2 to 4"}},
		{"fit --learner sgd", []string{"fit", "--data", "lab.csv", "--learner", "sgd"}, 2, []string{"--learner sgd", "mark1 lab"}},
		{"fit --batch", []string{"fit", "--data", "lab.csv", "--batch", "4"}, 2, []string{"--batch"}},
		{"lab sgd --batch 0", []string{"lab", "--learner", "sgd", "--batch", "0"}, 2, []string{"--batch 0", "[1, 1000000]"}},
		// Learners' working memory, counted from the data's shape before
		// allocating (issue 26).
		{"fit perceptron: 1,000 classes × 2²⁴ features", []string{"fit", "--data", "wide.libsvm", "--learner", "perceptron"}, 1, []string{"wide.libsvm", "1000 machines × 16777217 weights", "268 GB", "over the budget of", "--max-memory"}},
		{"fit averaged: 1,000 classes × 2²⁴ features", []string{"fit", "--data", "wide.libsvm", "--learner", "averaged"}, 1, []string{"wide.libsvm", "1000 machines × 16777217 weights", "--max-memory"}},
		{"fit pocket: 1,000 classes × 2²⁴ features", []string{"fit", "--data", "wide.libsvm", "--learner", "pocket"}, 1, []string{"1000 machines × 16777217 weights", "--max-memory"}},
		{"fit batch-gd: 1,000 classes × 2²⁴ features", []string{"fit", "--data", "wide.libsvm", "--learner", "batch-gd"}, 1, []string{"1000 machines × 16777217 weights", "--max-memory"}},
		{"fit linear-svm: 1,000 classes × 2²⁴ features", []string{"fit", "--data", "wide.libsvm", "--learner", "linear-svm"}, 1, []string{"linear-svm", "1000 machines × 16777217 weights", "--max-memory"}},
		{"compare: 1,000 classes × 2²⁴ features", []string{"compare", "--data", "wide.libsvm", "--quiet"}, 1, []string{"perceptron", "1000 machines × 16777217 weights", "--max-memory"}},
		{"fit svm: 10,000 classes one-vs-one", []string{"fit", "--data", "ovo.libsvm"}, 1, []string{"ovo.libsvm", "svm", "49995000 one-vs-one pairs", "--max-memory"}},
		{"fit kernel-perceptron: 10,000 classes one-vs-rest", []string{"fit", "--data", "ovo.libsvm", "--learner", "kernel-perceptron"}, 1, []string{"ovo.libsvm", "20000 rows × 10000 machines", "--max-memory"}},
		{"compare voted: a history of retired vectors over --max-memory", []string{"compare", "--data", "votenoise.libsvm", "--learners", "voted", "--epochs", "1000", "--quiet", "--max-memory", "30000000"}, 1, []string{"voted perceptron", "retired weight vectors of 201 values", "over the budget of", "--max-memory"}},
		{"resume on a libsvm file of pictures changed since training: the row named", []string{"train", "--resume", "fprows.json", "--epochs", "3", "--out", "fp2.json"}, 1, []string{"fprows.json", "fprows.libsvm[4]", "is not the one trained on"}},
		{"fit --scale std densifying a sparse file", []string{"fit", "--data", "densify.libsvm", "--scale", "std"}, 1, []string{"--scale std", "densify.libsvm", "36000000 non-zero values", "--max-memory"}},
		// Readers: pictures and folders.
		{"picture of 200,000 x 200,000 pixels", []string{"train", "--data", "huge"}, 1, []string{"big.png", "200000", "exceeds"}},
		{"truncated PNG", []string{"train", "--data", "trunc"}, 1, []string{"half.png"}},
		{"one class only", []string{"train", "--data", "oneclass"}, 1, []string{"oneclass", "class"}},
		{"non-UTF-8 file name", []string{"train", "--data", "nonutf8"}, 1, []string{"nonutf8", "not a picture"}},
		{"very long file name", []string{"train", "--data", long}, 1, []string{"nnnnnnnn", "file name too long"}},
		{"symlink to its own folder", []string{"train", "--data", "loop"}, 1, []string{"self"}},
		{"symlink loop", []string{"train", "--data", "loop2"}, 1, []string{"loop2/b"}},
		{"zero-size picture", []string{"predict", "--machine", "good.json", "zero.png"}, 1, []string{"zero.png"}},
		{"predict picture over --max-pixels", []string{"predict", "--machine", "good.json", "--max-pixels", "10", "picture.png"}, 1, []string{"picture.png", "exceeds"}},
		// Readers: IDX.
		{"IDX wrong magic", []string{"train", "--data", "magic-images-idx3-ubyte"}, 1, []string{"magic-images-idx3-ubyte"}},
		{"IDX huge declared count", []string{"train", "--data", "hugeidx-images-idx3-ubyte"}, 1, []string{"hugeidx-images-idx3-ubyte", "limit"}},
		{"IDX zero images", []string{"train", "--data", "empty-images-idx3-ubyte"}, 1, []string{"empty-images-idx3-ubyte"}},
		{"IDX label/image count mismatch", []string{"train", "--data", "mismatch-images-idx3-ubyte"}, 1, []string{"mismatch", "6", "5"}},
		{"IDX truncated", []string{"train", "--data", "short-images-idx3-ubyte"}, 1, []string{"short-images-idx3-ubyte"}},
		{"IDX without labels", []string{"train", "--data", "nolabels-images-idx3-ubyte"}, 1, []string{"nolabels-labels-idx1-ubyte"}},
		// Readers: libsvm.
		{"libsvm NaN value", []string{"train", "--data", "nan.libsvm"}, 1, []string{"nan.libsvm", "1"}},
		{"libsvm Inf value", []string{"train", "--data", "inf.libsvm"}, 1, []string{"inf.libsvm", "1"}},
		{"libsvm NaN label", []string{"train", "--data", "label-nan.libsvm"}, 1, []string{"label-nan.libsvm", "1"}},
		{"libsvm not square", []string{"train", "--data", "notsquare.libsvm"}, 1, []string{"notsquare.libsvm", "square"}},
		{"libsvm huge index", []string{"train", "--data", "bigindex.libsvm"}, 1, []string{"bigindex.libsvm"}},
		{"libsvm one class", []string{"train", "--data", "oneclass.libsvm"}, 1, []string{"oneclass.libsvm", "class"}},
		{"binary file as data", []string{"train", "--data", "binary.libsvm"}, 1, []string{"binary.libsvm"}},
		// Readers: machine files, plugboards, configurations.
		{"truncated machine", []string{"eval", "--machine", "truncated.json", "--task", "leftright"}, 1, []string{"truncated.json", "truncated"}},
		{"wrong magic machine", []string{"wiring", "--machine", "wrongmagic.json"}, 1, []string{"wrongmagic.json", `"mark2-machine"`}},
		{"future version", []string{"predict", "--machine", "future.json", "picture.png"}, 1, []string{"future.json", "version 3"}},
		{"edited machine", []string{"ablate", "--machine", "edited.json"}, 1, []string{"edited.json", "checksum"}},
		{"PNG as machine", []string{"eval", "--machine", "notjson.json", "--task", "leftright"}, 1, []string{"notjson.json", "not JSON"}},
		{"resume a PNG", []string{"train", "--resume", "picture.png"}, 1, []string{"picture.png", "not JSON"}},
		{"resume without data record", []string{"train", "--resume", "orphan.json", "--epochs", "99"}, 1, []string{"orphan.json", "gone"}},
		{"config with a bad fault", []string{"train", "--config", "badconfig.json"}, 1, []string{"badconfig.json", "faults.dead_a 7", "out of range"}},
		{"config with a misspelt member", []string{"compare", "--config", "typo.json"}, 1, []string{"typo.json", "fualts"}},
		{"plugboard off the retina", []string{"train", "--wiring", "plug.txt"}, 1, []string{"plug.txt:3", "off the"}},
		// Flags of every command.
		{"train --faults unknown", []string{"train", "--faults", "gremlins=0.1"}, 2, []string{"--faults", "gremlins"}},
		{"train --faults rate", []string{"train", "--faults", "dead-a=2"}, 2, []string{"--faults", "dead-a=2", "out of range"}},
		{"train --faults NaN", []string{"train", "--faults", "drift=NaN"}, 2, []string{"--faults", "drift"}},
		{"train --checkpoint-every", []string{"train", "--checkpoint-every", "-1"}, 2, []string{"--checkpoint-every"}},
		{"train --pulses", []string{"train", "--pulses", "0"}, 2, []string{"--pulses"}},
		{"train --n", []string{"train", "--n", "0"}, 2, []string{"--n"}},
		{"train --card-size", []string{"train", "--card-size", "100000"}, 2, []string{"--card-size"}},
		{"train --max-pixels", []string{"train", "--max-pixels", "0"}, 2, []string{"--max-pixels"}},
		{"train --a-units", []string{"train", "--a-units", "-3"}, 2, []string{"--a-units -3", "out of range"}},
		{"train --cell-noise", []string{"train", "--cell-noise", "2"}, 2, []string{"noise"}},
		{"train --seed", []string{"train", "--seed", "-1"}, 2, []string{"--seed"}},
		{"train --resume with --preset", []string{"train", "--resume", "good.json", "--preset", "worn"}, 2, []string{"--preset"}},
		{"compare --faults", []string{"compare", "--faults", "stuck-pots=x"}, 2, []string{"--faults", "not a number"}},
		{"compare --epochs", []string{"compare", "--epochs", "0"}, 2, []string{"--epochs"}},
		{"eval --n", []string{"eval", "--machine", "good.json", "--task", "leftright", "--n", "-5"}, 2, []string{"--n"}},
		{"eval without data", []string{"eval", "--machine", "good.json"}, 2, []string{"--data", "--task"}},
		{"predict without pictures", []string{"predict", "--machine", "good.json"}, 2, []string{"image"}},
		{"stimuli --n", []string{"stimuli", "--task", "leftright", "--n", "0", "--out", "cards"}, 2, []string{"--n"}},
		{"stimuli --task", []string{"stimuli", "--task", "chess", "--out", "cards"}, 2, []string{"chess"}},
		{"wiring extra argument", []string{"wiring", "--machine", "good.json", "--frob"}, 2, []string{"frob"}},
		{"ablate --fractions", []string{"ablate", "--machine", "good.json", "--fractions", "0,1.5"}, 2, []string{"--fractions", "1.5"}},
		{"ablate --fail", []string{"ablate", "--machine", "good.json", "--fail", "r-units"}, 2, []string{"--fail", "r-units"}},
		{"ablate --retrain", []string{"ablate", "--machine", "good.json", "--retrain", "-1"}, 2, []string{"--retrain"}},
		{"ablate --plot not PNG", []string{"ablate", "--machine", "good.json", "--plot", "curve.svg"}, 2, []string{"--plot", "curve.svg"}},
		{"ablate no held-out cards", []string{"ablate", "--machine", "good.json", "--task", "leftright", "--test-split", "0"}, 2, []string{"held-out"}},
		{"ablate other classes", []string{"ablate", "--machine", "good.json", "--task", "shapes"}, 1, []string{"square", "not one the machine was trained on"}},
		{"tasks extra flag", []string{"tasks", "--n", "3"}, 2, []string{"--n"}},
		// Outputs that are not regular files, or cannot be made (checked
		// before training).
		{"train --out a named pipe", []string{"train", "--task", "leftright", "--n", "5", "--out", "fifo"}, 1, []string{"--out", "fifo", "named pipe", "refusing"}},
		{"train --out /dev/null", []string{"train", "--task", "leftright", "--n", "5", "--out", "/dev/null"}, 1, []string{"/dev/null", "character device"}},
		{"train --out a folder", []string{"train", "--task", "leftright", "--n", "5", "--out", "afolder"}, 1, []string{"afolder", "a folder"}},
		{"train --out in a missing folder", []string{"train", "--task", "leftright", "--n", "5", "--out", "nowhere/m.json"}, 1, []string{"nowhere", "does not exist"}},
		{"train --out under a file", []string{"train", "--task", "leftright", "--n", "5", "--out", "plain.txt/m.json"}, 1, []string{"plain.txt", "not a folder"}},
		{"stimuli --out a file", []string{"stimuli", "--task", "leftright", "--n", "2", "--out", "plain.txt"}, 1, []string{"plain.txt", "not a folder"}},
		{"stimuli --out a named pipe", []string{"stimuli", "--task", "leftright", "--n", "2", "--out", "fifo"}, 1, []string{"fifo", "named pipe"}},
		// Inputs that are not regular files must not block or read without end.
		{"--config a named pipe", []string{"train", "--config", "fifo"}, 1, []string{"fifo", "named pipe"}},
		{"--config /dev/zero", []string{"train", "--config", "/dev/zero"}, 1, []string{"/dev/zero", "character device"}},
		{"--config with two JSON values", []string{"train", "--config", "twovalues.json"}, 1, []string{"twovalues.json", "one JSON object"}},
		{"serve --config a named pipe", []string{"serve", "--config", "fifo"}, 1, []string{"fifo", "named pipe"}},
		{"--machine a named pipe", []string{"eval", "--machine", "fifo", "--task", "leftright"}, 1, []string{"fifo", "named pipe"}},
		{"--machine of 600 MiB", []string{"eval", "--machine", "huge.json", "--task", "leftright"}, 1, []string{"huge.json", "limit of 536870912 bytes", "raise it with --max-memory"}},
		{"--machine over a lowered --max-memory", []string{"predict", "--machine", "huge.json", "--max-memory", "200000000", "picture.png"}, 1, []string{"huge.json", "limit of 200000000 bytes", "--max-memory"}},
		{"--resume of 600 MiB", []string{"train", "--resume", "huge.json"}, 1, []string{"huge.json", "limit of 536870912 bytes", "--max-memory"}},
		{"--config of 600 MiB", []string{"train", "--config", "huge.json"}, 1, []string{"huge.json", "limit of 536870912 bytes", "--max-memory"}},
		{"serve --machine of 600 MiB", []string{"serve", "--machine", "huge.json"}, 1, []string{"huge.json", "limit of 536870912 bytes", "--max-memory"}},
		{"--wiring of 600 MiB", []string{"train", "--wiring", "huge.json"}, 1, []string{"huge.json", "limit of 536870912 bytes", "--max-memory"}},
		{"wiring --max-memory too small", []string{"wiring", "--machine", "good.json", "--max-memory", "1000"}, 2, []string{"--max-memory", "out of range"}},
		{"--machine a folder", []string{"wiring", "--machine", "afolder"}, 1, []string{"afolder", "folder"}},
		{"--resume a named pipe", []string{"train", "--resume", "fifo"}, 1, []string{"--resume", "fifo", "named pipe"}},
		{"--wiring a named pipe", []string{"train", "--wiring", "fifo"}, 1, []string{"fifo", "named pipe"}},
		{"--data a named pipe", []string{"train", "--data", "fifo"}, 1, []string{"fifo", "named pipe"}},
		{"compare --data a named pipe", []string{"compare", "--data", "fifo"}, 1, []string{"fifo", "named pipe"}},
		{"fit --data a named pipe", []string{"fit", "--data", "fifo"}, 1, []string{"fifo", "named pipe"}},
		{"apply --model a named pipe", []string{"apply", "--model", "fifo", "--data", "nan.libsvm"}, 1, []string{"fifo", "named pipe"}},
		{"dials --animate from a recording whose epoch file is a named pipe", []string{"dials", "--record", "rec", "--animate", "a.gif"}, 1, []string{"epoch-0001.json", "named pipe"}},
		{"dials --animate: the frames over --max-memory", []string{"dials", "--record", "rec2", "--animate", "a.gif", "--max-memory", "1048576"}, 1, []string{"rec2", "frames of", "--max-memory", "--every"}},
		{"dials --every 0", []string{"dials", "--record", "rec2", "--animate", "a.gif", "--every", "0"}, 2, []string{"--every 0", "out of range"}},
		// Memory: tiny files declaring huge data are refused before allocating.
		{"IDX of 10 million 1x1 images (10 kB gzipped)", []string{"train", "--data", "ten-million-images-idx3-ubyte.gz"}, 1, []string{"ten-million-images-idx3-ubyte.gz", "10000000 samples", "--max-memory"}},
		{"IDX of 300,000 1x1 images: the fitted cards over --max-memory", []string{"train", "--data", "tiny-images-idx3-ubyte.gz", "--max-memory", "100000000"}, 1, []string{"fitting 300000 cards", "--max-memory"}},
		{"compare: the fitted cards over --max-memory", []string{"compare", "--data", "tiny-images-idx3-ubyte.gz", "--max-memory", "100000000"}, 1, []string{"fitting 300000 cards", "--max-memory"}},
		{"libsvm of 200,000 rows over --max-memory", []string{"train", "--data", "many-rows.libsvm.gz", "--max-memory", "10000000"}, 1, []string{"many-rows.libsvm.gz", "--max-memory"}},
		{"fit: libsvm of 200,000 rows over --max-memory", []string{"fit", "--data", "many-rows.libsvm.gz", "--max-memory", "2000000"}, 1, []string{"many-rows.libsvm.gz", "over the budget of 2000000", "--max-memory"}},
		{"compare raw: libsvm of 200,000 rows over --max-memory", []string{"compare", "--data", "many-rows.libsvm.gz", "--max-memory", "2000000"}, 1, []string{"many-rows.libsvm.gz", "over the budget of 2000000", "--max-memory"}},
		{"apply --max-memory too small", []string{"apply", "--model", "m.json", "--data", "many-rows.libsvm.gz", "--max-memory", "10"}, 2, []string{"--max-memory", "out of range"}},
		{"task of a million cards per class", []string{"train", "--task", "shapes", "--n", "1000000"}, 1, []string{"task shapes", "--max-memory"}},
		{"--max-memory too small", []string{"train", "--max-memory", "5"}, 2, []string{"--max-memory", "out of range"}},
		{"--max-memory the largest int64", []string{"dials", "--machine", "good.json", "--max-memory", "9223372036854775807"}, 2, []string{"--max-memory 9223372036854775807 out of range"}},
		// A recorded data path is not trusted with messages.
		{"ablate: recorded data now a secret", []string{"ablate", "--machine", "snoop.json"}, 1, []string{"snoop.json", "secret.libsvm", "details withheld"}},
		{"compare: a kernel whose scale overflows", []string{"compare", "--task", "leftright", "--n", "5", "--learners", "svm", "--kernel", "gaussian:sigma=1e-160"}, 2, []string{"--kernel", "sigma 1e-160 out of range"}},
		{"compare: a kernel whose values overflow", []string{"compare", "--task", "leftright", "--n", "5", "--learners", "svm", "--kernel", "poly:d=20,c=1e300", "--no-theory", "--quiet"}, 1, []string{"poly", "not a finite number"}},
		{"--wiring of 511 A-units with --a-units 512", []string{"train", "--task", "leftright", "--n", "5", "--wiring", "short-plug.txt", "--a-units", "512"}, 2, []string{"--a-units 512", "short-plug.txt", "511 A-units"}},
		{"a machine of 27 million pots over --max-memory", []string{"train", "--task", "letters", "--n", "2", "--a-units", "1048576", "--layout", "full", "--r-units", "1024", "--code", "one-per-class"}, 1, []string{"1048576 A-units and 27262976 pots", "over the limit of 536870912", "--max-memory"}},
		{"resume: a recipe raising its own data budget", []string{"train", "--resume", "greedy.json", "--out", "resumed.json"}, 1, []string{"greedy.json", "1000000", "over the limit of 536870912", "--max-memory"}},
		{"ablate: a recipe raising its own data budget", []string{"ablate", "--machine", "greedy.json"}, 1, []string{"greedy.json", "over the limit of 536870912", "--max-memory"}},
		{"dials: a recipe out of range names the file's field", []string{"dials", "--machine", "pulses.json"}, 1, []string{"pulses.json", "recipe.pulses 5000 out of range", "[1, 1000]"}},
		{"train --resume: a recipe out of range names the file's field", []string{"train", "--resume", "pulses.json", "--out", "resumed.json"}, 1, []string{"pulses.json", "recipe.pulses 5000 out of range"}},
		{"dials: a recipe raising its own data budget", []string{"dials", "--machine", "greedy.json", "--view", "means", "--png", "m.png"}, 1, []string{"greedy.json", "over the limit of 536870912", "--max-memory"}},
		{"resume: recorded data now a secret", []string{"train", "--resume", "snoop.json", "--out", "resumed.json"}, 1, []string{"snoop.json", "secret.libsvm", "details withheld"}},
		// Flags out of range exit 2 naming the flag and the range; no value
		// is silently replaced by a default.
		{"--a-units 0", []string{"train", "--a-units", "0"}, 2, []string{"--a-units 0", "[1, 1048576]"}},
		{"--a-units a billion", []string{"train", "--a-units", "1000000000"}, 2, []string{"--a-units 1000000000", "[1, 1048576]"}},
		{"--r-units 0", []string{"train", "--r-units", "0"}, 2, []string{"--r-units 0", "[1, 1024]"}},
		{"--retina-width 0", []string{"compare", "--retina-width", "0"}, 2, []string{"--retina-width 0", "[1, 1024]"}},
		{"--retina-height 5000", []string{"serve", "--retina-height", "5000"}, 2, []string{"--retina-height 5000", "[1, 1024]"}},
		{"--theta 99", []string{"train", "--theta", "99"}, 2, []string{"--theta 99", "[0, 5]"}},
		{"--x 400 --y 1", []string{"train", "--x", "400", "--y", "1"}, 2, []string{"--x 400 out of range with --y 1", "400 cells"}},
		{"--x 0 --y 0", []string{"train", "--x", "0", "--y", "0"}, 2, []string{"--x 0 out of range with --y 0", "origin point"}},
		{"--max-pixels -5 (predict)", []string{"predict", "--machine", "good.json", "--max-pixels", "-5", "picture.png"}, 2, []string{"--max-pixels -5", "out of range"}},
		{"--max-pixels -5 (dials)", []string{"dials", "--machine", "good.json", "--max-pixels", "-5"}, 2, []string{"--max-pixels -5"}},
		{"--max-pixels -5 (train)", []string{"train", "--max-pixels", "-5"}, 2, []string{"--max-pixels -5"}},
		{"--data empty", []string{"train", "--data", ""}, 2, []string{"--data is empty"}},
		{"--task empty", []string{"eval", "--machine", "good.json", "--task", ""}, 2, []string{"--task"}},
		{"--learners ,", []string{"compare", "--learners", ","}, 2, []string{"--learners", "names none"}},
		{"compare --plot x.svg", []string{"compare", "--plot", "x.svg"}, 2, []string{"--plot x.svg", "PNG"}},
		{"help for an unknown command", []string{"help", "frobnicate"}, 2, []string{"frobnicate"}},
		{"too many classes for the R-units, binary code", []string{"train", "--task", "letters", "--r-units", "2"}, 1, []string{"26 classes need 5 R-units", "more R-units"}},
		{"--step 1e308 without end stops", []string{"train", "--preset", "ideal", "--step", "1e308"}, 2, []string{"step 1e+308", "out of range"}},
		{"--initial Inf", []string{"train", "--initial", "Inf"}, 2, []string{"--initial +Inf out of range"}},
		{"--drift 1e308", []string{"train", "--drift", "1e308"}, 2, []string{"drift 1e+308", "out of range"}},
		// The web panel stays on this computer unless told otherwise.
		{"serve on every interface", []string{"serve", "--addr", ":0"}, 2, []string{"--allow-remote"}},
		{"serve on a LAN address", []string{"serve", "--addr", "192.0.2.1:0"}, 2, []string{"--allow-remote"}},
		{"serve --upload-timeout", []string{"serve", "--upload-timeout", "0s"}, 2, []string{"--upload-timeout"}},
	}
	if len(tests) < 30 {
		t.Fatalf("only %d cases", len(tests))
	}
	var worst atomic.Uint64
	var worstName atomic.Value
	defer func() {
		t.Logf("%d cases; worst peak live heap %.1f MB (%v)", len(tests), float64(worst.Load())/1e6, worstName.Load())
	}()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := listing(t, dir)
			args := tt.args
			switch args[0] { // every command that writes is told where
			case "train":
				if !slices.Contains(args, "--resume") && !slices.Contains(args, "--out") {
					args = append(slices.Clone(args), "--out", "out.json")
				}
			case "compare":
				if !slices.Contains(args, "--plot") {
					args = append(slices.Clone(args), "--plot", "out.png")
				}
			}
			runtime.GC() // what earlier cases left is not this one's
			heap := sampleHeap()
			code, stdout, stderr := run(t, dir, args...)
			peak := heap.Peak()
			t.Logf("peak live heap %.1f MB", float64(peak)/1e6)
			if peak > worst.Load() {
				worst.Store(peak)
				worstName.Store(tt.name)
			}
			if peak > 256<<20 {
				t.Errorf("live heap reached %.0f MB; want at most 256 MB", float64(peak)/1e6)
			}
			if strings.Contains(stderr+stdout, "SECRET") {
				t.Errorf("quotes a file the user did not name: %q", stderr)
			}
			t.Logf("%s", stderr[strings.LastIndex(strings.TrimSpace(stderr), "\n")+1:])
			if code != tt.code {
				t.Errorf("exit %d; want %d (stderr %q)", code, tt.code, stderr)
			}
			msg := strings.TrimSpace(stderr)
			if i := strings.LastIndex(msg, "\n"); i >= 0 {
				if tt.code == 1 {
					t.Errorf("%d lines of error; want one: %q", strings.Count(stderr, "\n"), stderr)
				}
				msg = msg[i+1:] // usage errors print the flags first
			}
			if !strings.HasPrefix(msg, "mark1: ") {
				t.Errorf("message %q does not start with mark1:", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
			if strings.Contains(stdout, "Saved") || strings.Contains(stdout, "Plotted") {
				t.Errorf("claims to have written a file: %s", stdout)
			}
			if after := listing(t, dir); !slices.Equal(before, after) {
				t.Errorf("files changed: before %d, after %d", len(before), len(after))
			}
		})
	}
}
