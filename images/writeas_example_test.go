package images_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"mark1/images"
)

// A task's cards written as the gzipped IDX pair MNIST uses.
func ExampleWriteAs() {
	dir, err := os.MkdirTemp("", "writeas")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	d, _ := images.Generate("leftright", 3, 8, 1)
	wrote, err := images.WriteAs(context.Background(), d, 8, "idx", filepath.Join(dir, "lr"), "")
	if err != nil {
		fmt.Println(err)
		return
	}
	back, err := images.Load(filepath.Join(dir, "lr-images-idx3-ubyte.gz"), images.Limits{})
	fmt.Println(filepath.Base(wrote), back.Len(), err)
	// Output:
	// lr-labels-idx1-ubyte.gz 6 <nil>
}
