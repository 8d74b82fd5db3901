package jsonnum

import (
	"encoding/json"
	"math"
	"testing"
)

func TestOf(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		in   float64
		json string
		cell string
	}{
		{1.5, "1.5", "1.5"},
		{negZero, "0", "0"},
		{-2, "-2", "-2"},
		{math.NaN(), "null", ""},
		{math.Inf(1), "null", ""},
		{math.Inf(-1), "null", ""},
	}
	for _, tt := range tests {
		b, err := json.Marshal(Of(tt.in))
		if err != nil || string(b) != tt.json {
			t.Errorf("Of(%v) encodes as %s, %v; want %s", tt.in, b, err, tt.json)
		}
		v := tt.in
		if got := Cell(&v, 'g', -1); got != tt.cell {
			t.Errorf("Cell(%v) = %q; want %q", tt.in, got, tt.cell)
		}
	}
	if Clean(nil) != nil || Cell(nil, 'g', -1) != "" {
		t.Error("nil is not null")
	}
	if b, _ := json.Marshal(Zero(negZero)); string(b) != "0" {
		t.Errorf("Zero(-0) encodes as %s", b)
	}
	defer func() {
		if recover() == nil {
			t.Error("Zero(NaN) did not panic")
		}
	}()
	Zero(math.NaN())
}
