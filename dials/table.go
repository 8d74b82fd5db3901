package dials

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"mark1/machine"
)

// WriteTable prints pots as an aligned text table, one pot a line.
func WriteTable(w io.Writer, pots []Pot) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%6s  %6s  %6s  %9s  %9s  %6s  %5s\n", "pot", "A-unit", "R-unit", "position", "value", "range", "stop")
	for _, p := range pots {
		a := strconv.Itoa(p.AUnit)
		if p.Bias() {
			a = "bias"
		}
		stop := ""
		switch p.AtStop {
		case -1:
			stop = "low"
		case 1:
			stop = "high"
		}
		if p.Stuck {
			stop += " stuck"
		}
		line := fmt.Sprintf("%6d  %6s  %6d  %+9.4f  %+9.4f  %6s  %s", p.ID, a, p.RUnit, p.Position, p.Value, percent(p.Percent), strings.TrimSpace(stop))
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func percent(p float64) string {
	if math.IsNaN(p) {
		return "-"
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + "%"
}

// csvHeader is the first line WriteCSV writes.
var csvHeader = []string{"pot", "a_unit", "r_unit", "bias", "position", "value", "percent", "at_stop", "stuck"}

// WriteCSV prints pots as CSV with a header line. A bias pot has an empty
// a_unit; percent is empty without end stops; at_stop is -1, 0 or 1.
func WriteCSV(w io.Writer, pots []Pot) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	for _, p := range pots {
		a := strconv.Itoa(p.AUnit)
		if p.Bias() {
			a = ""
		}
		pc := ""
		if !math.IsNaN(p.Percent) {
			pc = strconv.FormatFloat(p.Percent, 'f', 2, 64)
		}
		cw.Write([]string{
			strconv.Itoa(p.ID), a, strconv.Itoa(p.RUnit), strconv.FormatBool(p.Bias()),
			strconv.FormatFloat(p.Position, 'g', -1, 64), strconv.FormatFloat(p.Value, 'g', -1, 64),
			pc, strconv.Itoa(p.AtStop), strconv.FormatBool(p.Stuck),
		})
	}
	cw.Flush()
	return cw.Error()
}

// jsonPot is a Pot as WriteJSON writes it.
type jsonPot struct {
	ID       int      `json:"pot"`
	AUnit    *int     `json:"a_unit"` // null for a bias pot
	RUnit    int      `json:"r_unit"`
	Position float64  `json:"position"`
	Value    float64  `json:"value"`
	Percent  *float64 `json:"percent"` // null without end stops
	AtStop   int      `json:"at_stop"`
	Stuck    bool     `json:"stuck"`
}

// jsonSummary is a Summary as WriteJSON writes it.
type jsonSummary struct {
	Pots        int      `json:"pots"`
	Bias        int      `json:"bias_pots"`
	Limit       *float64 `json:"limit"` // null: no end stops
	AtLow       int      `json:"at_low_stop"`
	AtHigh      int      `json:"at_high_stop"`
	Stuck       int      `json:"stuck"`
	Min         float64  `json:"min"`
	Max         float64  `json:"max"`
	Mean        float64  `json:"mean"`
	HistLo      float64  `json:"histogram_lo"`
	HistHi      float64  `json:"histogram_hi"`
	Histogram   []int    `json:"histogram"`
	Pulses      int64    `json:"pulses"`
	Saturations int64    `json:"saturations"`
	Seconds     float64  `json:"seconds"`
}

// WriteJSON prints the summary and the pots as one JSON object:
// {"summary": {...}, "pots": [{"pot": 0, "a_unit": 0, ...}, ...]}.
func WriteJSON(w io.Writer, s Summary, pots []Pot) error {
	out := struct {
		Summary jsonSummary `json:"summary"`
		Pots    []jsonPot   `json:"pots"`
	}{
		Summary: jsonSummary{
			Pots: s.Pots, Bias: s.Bias, AtLow: s.AtLow, AtHigh: s.AtHigh, Stuck: s.Stuck,
			Min: s.Min, Max: s.Max, Mean: s.Mean, HistLo: s.Histogram.Lo, HistHi: s.Histogram.Hi,
			Histogram: s.Histogram.Counts, Pulses: s.Pulses, Saturations: s.Saturations, Seconds: s.Seconds,
		},
		Pots: make([]jsonPot, len(pots)),
	}
	if s.Limit != 0 {
		out.Summary.Limit = &s.Limit
	}
	for i, p := range pots {
		j := jsonPot{ID: p.ID, RUnit: p.RUnit, Position: p.Position, Value: p.Value, AtStop: p.AtStop, Stuck: p.Stuck}
		if !p.Bias() {
			a := p.AUnit
			j.AUnit = &a
		}
		if !math.IsNaN(p.Percent) {
			pc := p.Percent
			j.Percent = &pc
		}
		out.Pots[i] = j
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteSummary prints the summary for people: counts, the spread of
// positions with a histogram drawn in text, and the motor work done.
func WriteSummary(w io.Writer, s Summary) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d pots", s.Pots)
	if s.Bias > 0 {
		fmt.Fprintf(&b, " (%d of them bias pots)", s.Bias)
	}
	if s.Limit > 0 {
		fmt.Fprintf(&b, ", end stops at ±%g: %d saturated (%d low, %d high)", s.Limit, s.Saturated(), s.AtLow, s.AtHigh)
	} else {
		b.WriteString(", no end stops")
	}
	fmt.Fprintf(&b, ", %d stuck.\n", s.Stuck)
	fmt.Fprintf(&b, "Positions from %+.4f to %+.4f, mean %+.4f.\n", s.Min, s.Max, s.Mean)
	fmt.Fprintf(&b, "Motors: %d pulses, %d against end stops; %.0f s of machine time.\n", s.Pulses, s.Saturations, s.Seconds)
	b.WriteString("Histogram of positions:\n")
	most := 1
	for _, c := range s.Histogram.Counts {
		most = max(most, c)
	}
	n := len(s.Histogram.Counts)
	width := (s.Histogram.Hi - s.Histogram.Lo) / float64(n)
	for i, c := range s.Histogram.Counts {
		lo := s.Histogram.Lo + float64(i)*width
		bar := strings.Repeat("#", (c*40+most-1)/most)
		line := fmt.Sprintf("  [%+.3f, %+.3f%s %5d %s", lo, lo+width, closing(i == n-1), c, bar)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func closing(last bool) string {
	if last {
		return "]"
	}
	return ")"
}

// WriteReport writes what mark1 dials prints: a line on the machine m
// named name (its preset, layout and R-units in use), the summary s, and
// the table of pots.
func WriteReport(w io.Writer, name string, m *machine.Machine, s Summary, pots []Pot) error {
	if _, err := fmt.Fprintf(w, "%s: a %q machine, %s layout, %d R-units in use.\n", name, m.Config.Preset, m.Layer.Config().Layout, m.Layer.Used()); err != nil {
		return err
	}
	if err := WriteSummary(w, s); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return WriteTable(w, pots)
}
