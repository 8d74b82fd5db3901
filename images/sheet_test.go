package images

import (
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

var sheetDir = flag.String("sheets", "", "write a contact sheet of every task to `dir`/images-sheet-<task>.png, for people to look at")

// TestSheets writes contact sheets of the built-in tasks when -sheets is
// given (go test ./images -run Sheets -sheets /tmp), 8× magnified.
func TestSheets(t *testing.T) {
	if *sheetDir == "" {
		t.Skip("no -sheets directory")
	}
	for _, info := range Tasks() {
		per := 8
		if len(info.Classes) > 8 {
			per = 4
		}
		d, err := Generate(info.Name, per, 20, 1)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(*sheetDir, "images-sheet-"+info.Name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, ContactSheet(d, min(len(info.Classes), 13), 8)); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
