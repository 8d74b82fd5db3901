package cli

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mark1/lab"
)

// TestLabALayerRaster runs the raster A-layer (--unit-kind raster): --json
// holds the retina and each unit's origin cells, and the A-vectors are
// the units' outputs at the samples' cells; its thumbnails draw a PNG of
// their size; a --unit-kind out of range is refused naming the flag.
func TestLabALayerRaster(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, dir, "lab", "--example", "xor", "--learner", "a-layer", "--unit-kind", "raster", "--units", "8", "--seed", "3", "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errs)
	}
	var v struct {
		Learner string            `json:"learner"`
		Options lab.ALayerOptions `json:"options"`
		Units   []lab.AUnit       `json:"units"`
		Retina  *lab.Retina       `json:"retina"`
		Raster  []lab.RasterUnit  `json:"raster"`
		A       [][]float64       `json:"a"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Learner != "a-layer" || v.Options.Kind != lab.Raster || v.Units != nil || v.Retina == nil || len(v.Raster) != 8 || len(v.A) != 8 {
		t.Fatalf("--json: %.400s", out)
	}
	xor, _ := lab.Find("xor")
	for i, x := range xor.X {
		for j, u := range v.Raster {
			if fires := u.Fires(*v.Retina, v.Retina.Cell(x)); (v.A[i][j] == 1) != fires {
				t.Errorf("sample %d, unit %d: a = %v; the unit fires: %v", i+1, j+1, v.A[i][j], fires)
			}
		}
	}
	if code, _, errs := run(t, dir, "lab", "--example", "xor", "--learner", "a-layer", "--unit-kind", "raster", "--units", "8", "--seed", "3", "--view", "units", "--png", "u.png"); code != 0 {
		t.Fatalf("--png: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "u.png"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(b)); err != nil || cfg.Width != 4*280 || cfg.Height != 2*280+140 {
		t.Errorf("units: %dx%d (%v); want %dx%d", cfg.Width, cfg.Height, err, 4*280, 2*280+140)
	}
	code, _, errs = run(t, dir, "lab", "--example", "xor", "--learner", "a-layer", "--unit-kind", "hexagons")
	if code != 2 || !strings.Contains(errs, "--unit-kind hexagons out of range") {
		t.Errorf("--unit-kind hexagons: exit %d: %s", code, errs)
	}
}
