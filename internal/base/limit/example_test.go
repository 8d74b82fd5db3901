package limit_test

import (
	"fmt"

	"mark1/internal/base/limit"
)

func ExampleParseBytes() {
	for _, s := range []string{"536870912", "2e9", "512MB", "2GiB", "1.5"} {
		v, err := limit.ParseBytes(s)
		fmt.Println(v, err)
	}
	// Output:
	// 536870912 <nil>
	// 2000000000 <nil>
	// 512000000 <nil>
	// 2147483648 <nil>
	// 0 "1.5" is not a size in bytes (536870912, 2e9, 512MB, 2GiB)
}

// A memory budget read from a command line and written back.
func ExampleBytes() {
	var b limit.Bytes
	fmt.Println(b.Set("512MiB"), b)
	fmt.Println(b.Set("lots"), b)
	// Output:
	// <nil> 536870912
	// "lots" is not a size in bytes (536870912, 2e9, 512MB, 2GiB) 536870912
}
