package dataset_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"mark1/dataset"
)

func ExampleRead() {
	const text = `-1 1:0.5 3:2
+1 2:1
-1 3:-1
`
	s, err := dataset.Read(strings.NewReader(text), "toy.libsvm", dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Format, s.Rows(), "rows,", s.Dim, "features,", s.NonZeros(), "non-zeros")
	fmt.Println("classes (LIBSVM's order):", s.Classes)
	for i := range s.Rows() {
		fmt.Println(s.Label(i), s.DenseRow(nil, i))
	}
	// Output:
	// libsvm 3 rows, 3 features, 4 non-zeros
	// classes (LIBSVM's order): [1 -1]
	// -1 [0.5 0 2]
	// 1 [0 1 0]
	// -1 [0 0 -1]
}

func ExampleRead_csv() {
	const text = `petal_len,petal_wid,species
1.4,0.2,setosa
4.7,1.4,versicolor
`
	s, err := dataset.Read(strings.NewReader(text), "iris.csv", dataset.Options{LabelColumn: "species"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Features, s.Classes)
	_, err = dataset.Read(strings.NewReader("a,b,label\n1,2,x\n3,oops,y\n"), "bad.csv", dataset.Options{})
	fmt.Println(err)
	// Output:
	// [petal_len petal_wid] [setosa versicolor]
	// bad.csv:3: field 2: column "b": "oops" is not a number
}

func ExampleWriteLibSVM() {
	s, err := dataset.Read(strings.NewReader("x,y,label\n0,1.5,3\n2,0,7\n"), "in.csv", dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := dataset.WriteLibSVM(os.Stdout, s); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 3 2:1.5
	// 7 1:2
}

// Scaling to [−1, 1] as svm-scale does: fitted on the training rows (an
// absent feature counts as 0), applied to new rows with the same map.
func ExampleFitScaler() {
	train, _ := dataset.Read(strings.NewReader("1 1:2 2:10\n2 1:4\n1 1:6 2:5\n"), "train", dataset.Options{})
	test, _ := dataset.Read(strings.NewReader("1 1:5 2:20\n"), "test", dataset.Options{})
	sc, err := dataset.FitScaler(train, dataset.ScalePlusMinus)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("feature ranges:", sc.Min, sc.Max)
	scaled, _ := sc.Apply(test, 0)
	fmt.Println("test row:", scaled.DenseRow(nil, 0))
	// Output:
	// feature ranges: [2 0] [6 10]
	// test row: [0.5 3]
}

// A training file with 1-based libsvm indices beside a test file with an
// index 0: read together, as scikit-learn's load_svmlight_files reads
// them, both are 0-based, and the training file is read again so.
func ExampleReadPair() {
	dir, err := os.MkdirTemp("", "pair")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	train, test := dir+"/train.libsvm", dir+"/test.libsvm"
	os.WriteFile(train, []byte("1 1:1 2:1\n-1 2:-1\n"), 0o644)
	os.WriteFile(test, []byte("1 0:1 1:1\n"), 0o644)
	p, err := dataset.ReadPair(context.Background(), train, test, dataset.Options{}, 0, 256)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Train.Dim, p.Train.ZeroBased, p.Test.Dim, p.TestOptions.Indices == dataset.ZeroBased)
	// Output: 3 true 2 true
}

// Files names every file a data path reads: here an IDX images file and
// the labels file beside it.
func ExampleFiles() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	images := dir + "/train-images-idx3-ubyte"
	os.WriteFile(images, nil, 0o644)
	os.WriteFile(dir+"/train-labels-idx1-ubyte", nil, 0o644)
	for _, f := range dataset.Files(images) {
		fmt.Println(strings.TrimPrefix(f, dir+"/"))
	}
	// Output:
	// train-images-idx3-ubyte
	// train-labels-idx1-ubyte
}

// A reader that needs a few rows of a file, chosen by the labels of all of
// them, reads the labels first (no rows held), then the rows a block at a
// time, hashing every row into the data's fingerprint as it goes.
func ExampleReadLabels() {
	f, err := os.CreateTemp("", "labels-*.libsvm")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.Remove(f.Name())
	f.WriteString("-1 1:0.5\n-1 2:1\n1 1:2\n-1 2:3\n")
	f.Close()
	ctx := context.Background()
	labels, err := dataset.ReadLabels(ctx, f.Name(), dataset.Options{}, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("classes", labels.Classes, "labels", labels.Y, "values held", labels.NonZeros())
	fp := dataset.NewFingerprinter(labels.Dim, labels.Classes, labels.Rows())
	err = dataset.ReadBlocks(ctx, f.Name(), dataset.Options{}, 2, func(b *dataset.Set, first int) error {
		for k := range b.Rows() {
			idx, val := b.Row(k)
			fp.Add(labels.Y[first+k], idx, val)
		}
		return nil
	})
	whole, _ := dataset.ReadFile(f.Name(), dataset.Options{})
	fmt.Println("the whole file's fingerprint:", err == nil && fp.Sum() == whole.Fingerprint())
	// Output:
	// classes [1 -1] labels [1 1 0 1] values held 0
	// the whole file's fingerprint: true
}

// A file of dense values held compact (float32 here, which rounds 0.1)
// and described as read: each row's non-zero values, whether they are all
// 1 or all grey levels b/255 (0.2 is 51/255), and the fingerprint of the values as read,
// which the float32 rows no longer hold.
func ExampleReadFileDescribed() {
	f, err := os.CreateTemp("", "described-*.libsvm")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.Remove(f.Name())
	f.WriteString("1 1:0.1 2:1 3:0.5\n2 1:1 2:1 3:1\n1 1:0.2 3:0.4\n")
	f.Close()
	_, c, _, err := dataset.ReadFileDescribed(context.Background(), f.Name(), dataset.Options{}, 2, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	whole, _ := dataset.ReadFile(f.Name(), dataset.Options{})
	fmt.Println(c, c.Exact, fmt.Sprintf("%+v", c.Info), c.Fingerprint == whole.Fingerprint())
	// Output:
	// 3 rows × 3 float32 false [{NonZeros:3 Ones:false Grey:false} {NonZeros:3 Ones:true Grey:true} {NonZeros:2 Ones:false Grey:true}] true
}
