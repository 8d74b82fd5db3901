package cli

import (
	"strings"
	"testing"
)

// --adaline-bank chooses the memistor ADALINE's weights; a name it does
// not know is a usage error that lists the ones it does.
func TestCompareAdalineBank(t *testing.T) {
	dir := t.TempDir()
	base := []string{"compare", "--task", "leftright", "--n", "10", "--learners", "hardware,memistor-adaline", "--features", "association", "--no-theory", "--quiet", "--csv"}
	rows := map[string]string{}
	for _, bank := range []string{"memistors", "ideal", "rheostats"} {
		code, out, errs := run(t, dir, append(base, "--adaline-bank", bank)...)
		if code != 0 {
			t.Fatalf("--adaline-bank %s: exit %d: %s", bank, code, errs)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "memistor-adaline,") {
				if cells := strings.Split(line, ","); len(cells) > 11 {
					rows[bank] = cells[11] // machine_seconds: ideal weights plate in no time
				}
			}
		}
		if rows[bank] == "" {
			t.Fatalf("--adaline-bank %s: no memistor-adaline row in\n%s", bank, out)
		}
	}
	if rows["memistors"] == rows["ideal"] {
		t.Errorf("the 1960 memistors and ideal weights took the same machine time: %s s", rows["ideal"])
	}
	code, _, errs := run(t, dir, append(base, "--adaline-bank", "copper")...)
	if code == 0 || !strings.Contains(errs, "--adaline-bank") || !strings.Contains(errs, "rheostats") {
		t.Errorf("--adaline-bank copper: exit %d, %q; want a usage error naming the banks", code, errs)
	}
}
