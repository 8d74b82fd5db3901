package memguard_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"

	"mark1/internal/base/memguard"
)

// TestGuardStops: work that keeps every megabyte it allocates is stopped,
// the cause an *OverError over the limit; the context it was armed on is
// not cancelled.
func TestGuardStops(t *testing.T) {
	const limit = 16 << 20
	runtime.GC()
	ctx, stop := memguard.Guard(t.Context(), limit)
	defer stop()
	var kept [][]byte
	for ctx.Err() == nil && len(kept) < 4096 {
		kept = append(kept, make([]byte, 1<<20))
		runtime.GC()
	}
	var over *memguard.OverError
	if !errors.As(context.Cause(ctx), &over) || over.Live <= limit && over.Heap <= limit {
		t.Fatalf("after %d MiB: cause %v; want an *OverError over %d", len(kept), context.Cause(ctx), limit)
	}
	if memguard.Unguarded(ctx).Err() != nil {
		t.Error("the guard cancelled the context it was armed on")
	}
	runtime.KeepAlive(kept)
}

func ExampleGuard() {
	ctx, stop := memguard.Guard(context.Background(), 1<<40)
	defer stop()
	fmt.Println(ctx.Err(), memguard.Unguarded(ctx) == context.Background())
	fmt.Println(&memguard.OverError{Live: 70e6, Limit: 64 << 20})
	// Output:
	// <nil> true
	// the data and the work on them reached 70 MB live in memory, over the budget of 67108864 bytes (67 MB)
}

// What a budget leaves beside the live heap: never nothing, and less than
// the budget once anything is live.
func ExampleLeft() {
	fmt.Println(memguard.Left(1))
	const budget = 1 << 40
	left := memguard.Left(budget)
	fmt.Println(left > 0 && left < budget)
	// Output:
	// 1
	// true
}
