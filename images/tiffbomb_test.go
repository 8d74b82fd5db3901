package images

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"mark1/dataset"
)

// deflateTIFF returns a w×h 8-bit grey TIFF in one deflated strip whose
// data inflate to perPixel bytes a pixel: perPixel 1 is an honest picture,
// 8 a bomb (x/image/tiff inflates a strip up to 8 bytes a pixel whatever
// the picture's depth).
func deflateTIFF(t testing.TB, w, h, perPixel int) []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, w*h*perPixel))
	zw.Close()
	type entry struct {
		tag, typ uint16
		val      uint32
	}
	const short, long = 3, 4
	entries := []entry{
		{256, long, uint32(w)}, // ImageWidth
		{257, long, uint32(h)}, // ImageLength
		{258, short, 8},        // BitsPerSample
		{259, short, 8},        // Compression: deflate
		{262, short, 1},        // Photometric: black is zero
		{273, long, 0},         // StripOffsets (set below)
		{277, short, 1},        // SamplesPerPixel
		{278, long, uint32(h)}, // RowsPerStrip: one strip
		{279, long, uint32(z.Len())},
	}
	ifd := 8
	data := ifd + 2 + 12*len(entries) + 4
	entries[5].val = uint32(data)
	var b bytes.Buffer
	le := binary.LittleEndian
	b.WriteString("II")
	binary.Write(&b, le, uint16(42))
	binary.Write(&b, le, uint32(ifd))
	binary.Write(&b, le, uint16(len(entries)))
	for _, e := range entries {
		binary.Write(&b, le, e.tag)
		binary.Write(&b, le, e.typ)
		binary.Write(&b, le, uint32(1))
		binary.Write(&b, le, e.val) // a SHORT sits in the first two bytes (little-endian)
	}
	binary.Write(&b, le, uint32(0))
	b.Write(z.Bytes())
	return b.Bytes()
}

// TestTIFFBomb: a small deflated TIFF whose strip inflates to 8 bytes a
// pixel is counted at that cost before it is decoded, so the decoding
// budget refuses it; within a budget that admits it, what decoding
// allocates stays within the estimate.
func TestTIFFBomb(t *testing.T) {
	const side = 2048
	bomb := deflateTIFF(t, side, side, 8)
	t.Logf("bomb: %d bytes for %dx%d pixels", len(bomb), side, side)
	honest := deflateTIFF(t, 64, 48, 1)
	if g, err := DecodeGray(bytes.NewReader(honest), "honest.tiff", Limits{}); err != nil || g.Bounds().Dx() != 64 || g.Bounds().Dy() != 48 {
		t.Fatalf("an honest deflated TIFF: %v", err)
	}
	px := side * side
	need := 33*px + 5*min(px, KeepPixels)
	_, err := DecodeGray(bytes.NewReader(bomb), "bomb.tiff", Limits{MaxDecodeBytes: need - 1})
	if !errors.Is(err, dataset.ErrTooLarge) {
		t.Fatalf("bomb under a budget of %d bytes: error %v; want dataset.ErrTooLarge", need-1, err)
	}
	// The peak heap while decoding, with the collector run at every 1%
	// of growth so that the heap holds little garbage beside what is live.
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		peak := base
		for {
			select {
			case <-stop:
				done <- peak
				return
			default:
			}
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			time.Sleep(100 * time.Microsecond)
		}
	}()
	_, err = DecodeGray(bytes.NewReader(bomb), "bomb.tiff", Limits{MaxDecodeBytes: need})
	close(stop)
	growth := int64(<-done) - int64(base)
	if err != nil {
		t.Fatalf("bomb within a budget of %d bytes: %v", need, err)
	}
	t.Logf("decoding: peak heap growth %d bytes; estimate %d", growth, need)
	if raceEnabled {
		t.Log("under the race detector the heap is not the ordinary build's: the peak is not held to the estimate")
		return
	}
	if growth > int64(need) {
		t.Errorf("decoding took %d bytes at its peak, over the estimate of %d the budget admitted", growth, need)
	}
}
