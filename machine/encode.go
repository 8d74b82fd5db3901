package machine

import (
	"bytes"
	"fmt"
	"strconv"
)

// indent formats compact JSON (as json.Marshal writes it: no white space
// outside strings) as json.MarshalIndent would, except that an array
// holding no object or array is kept on one line, as in [1,2,3]. It works
// on whole tokens: strings are copied as they are, whatever they contain.
func indent(compact []byte, prefix, ind string) []byte {
	var out bytes.Buffer
	out.Grow(len(compact) + len(compact)/4)
	depth := 0
	newline := func() {
		out.WriteByte('\n')
		out.WriteString(prefix)
		for range depth {
			out.WriteString(ind)
		}
	}
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		switch c {
		case '"':
			j := stringEnd(compact, i)
			out.Write(compact[i:j])
			i = j - 1
		case '{', '[':
			if c == '[' {
				if j, flat := flatArray(compact, i); flat {
					out.Write(compact[i:j])
					i = j - 1
					continue
				}
			}
			if i+1 < len(compact) && (compact[i+1] == '}' || compact[i+1] == ']') {
				out.Write(compact[i : i+2]) // empty object or array
				i++
				continue
			}
			out.WriteByte(c)
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			out.WriteByte(c)
		case ',':
			out.WriteByte(',')
			newline()
		case ':':
			out.WriteString(": ")
		default:
			out.WriteByte(c)
		}
	}
	return out.Bytes()
}

// stringEnd returns the index just past the JSON string starting at b[i].
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// flatArray reports whether the array starting at b[i] holds only scalars,
// and where it ends.
func flatArray(b []byte, i int) (end int, flat bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '"':
			j = stringEnd(b, j) - 1
		case '[', '{':
			return 0, false
		case ']':
			return j + 1, true
		}
	}
	return 0, false
}

// recipeV1 reads the free-form "training" map of a version-1 machine file.
func recipeV1(t map[string]string) (*Recipe, error) {
	var r Recipe
	var err error
	num := func(key string, dst *int) {
		if v, ok := t[key]; ok && err == nil {
			if *dst, err = strconv.Atoi(v); err != nil {
				err = fmt.Errorf("bad %q: %q", key, v)
			}
		}
	}
	if v, ok := t["seed"]; ok {
		if r.Data.Seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			return nil, fmt.Errorf("bad \"seed\": %q", v)
		}
	} else {
		return nil, fmt.Errorf("no \"seed\": the data cannot be made again")
	}
	r.Data.Task, r.Data.Path, r.Data.TestPath = t["task"], t["data_path"], t["test_path"]
	if r.Data.Task == "" && r.Data.Path == "" {
		return nil, fmt.Errorf("neither \"task\" nor \"data_path\": the data cannot be made again")
	}
	num("n", &r.Data.PerClass)
	num("card_size", &r.Data.CardSize)
	num("max_pixels", &r.Data.MaxPixels)
	num("pulses", &r.Pulses)
	num("max_epochs", &r.MaxEpochs)
	num("train_size", &r.TrainSize)
	num("test_size", &r.TestSize)
	if err != nil {
		return nil, err
	}
	if v, ok := t["test_split"]; ok {
		if r.Data.TestSplit, err = strconv.ParseFloat(v, 64); err != nil {
			return nil, fmt.Errorf("bad \"test_split\": %q", v)
		}
	}
	if v, ok := t["rule"]; ok {
		if r.Rule, err = ParseRule(v); err != nil {
			return nil, err
		}
	}
	if v, ok := t["values"]; ok {
		if r.Values, err = ParseValueSystem(v); err != nil {
			return nil, err
		}
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &r, nil
}
