package lab_test

import (
	"context"
	"fmt"
	"os"

	"mark1/dataset"
	"mark1/lab"
)

// A CSV file of three classes is read as a Multi (one-vs-rest and
// one-vs-one runs); one of two classes would be an Example.
func ExampleReadData() {
	const three = "x1,x2,label\n0,0,a\n1,0,b\n0,1,c\n1,1,a\n2,2,b\n0,2,c\n"
	f, err := os.CreateTemp("", "three-*.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.Remove(f.Name())
	f.WriteString(three)
	f.Close()
	d, err := lab.ReadData(context.Background(), f.Name(), dataset.Options{})
	fmt.Println(d.Multi != nil, err)
	fmt.Println(d)
	// Output:
	// true <nil>
	// 6 points, 2 features; your data: 3 classes (a, b, c)
}
