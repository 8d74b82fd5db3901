package images

import "testing"

// TestSourceWithin: a recorded limit is kept where it is tighter than the
// reader's, and never raises it; zero means the default on either side.
func TestSourceWithin(t *testing.T) {
	for _, c := range []struct {
		name       string
		own, bound Limits
		wantPixels int
		wantBytes  int64
	}{
		{"both default", Limits{}, Limits{}, DefaultMaxPixels, DefaultMaxBytes},
		{"recorded looser: the reader's", Limits{MaxPixels: 1 << 40, MaxBytes: 1 << 40}, Limits{}, DefaultMaxPixels, DefaultMaxBytes},
		{"recorded tighter: kept", Limits{MaxPixels: 100, MaxBytes: 5 << 20}, Limits{}, 100, 5 << 20},
		{"reader tighter", Limits{MaxBytes: 1 << 40}, Limits{MaxPixels: 50, MaxBytes: 2 << 20}, 50, 2 << 20},
		{"reader raised, recorded default", Limits{}, Limits{MaxPixels: 1 << 26, MaxBytes: 1 << 31}, DefaultMaxPixels, DefaultMaxBytes},
		{"each field on its own", Limits{MaxPixels: 10, MaxBytes: 1 << 40}, Limits{MaxPixels: 20, MaxBytes: 1 << 20}, 10, 1 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Source{Task: "shapes", MaxPixels: c.own.MaxPixels, MaxBytes: c.own.MaxBytes}.Within(c.bound)
			if s.MaxPixels != c.wantPixels || s.MaxBytes != c.wantBytes {
				t.Errorf("Within: pixels %d, bytes %d; want %d, %d", s.MaxPixels, s.MaxBytes, c.wantPixels, c.wantBytes)
			}
			if s.Task != "shapes" {
				t.Errorf("Within changed the task: %q", s.Task)
			}
		})
	}
}
