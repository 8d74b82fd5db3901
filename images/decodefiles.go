package images

import (
	"context"
	"image"
	"runtime"
	"sync"
	"sync/atomic"

	"mark1/internal/base/atomicfile"

	"mark1/dataset"
)

// decodeFiles decodes the pictures in files on several goroutines, keeping
// their order. The pixels of all pictures together are held to
// lim.MaxValues, counted from each header before its pixels are decoded, and
// the decoders running at once share one lim.MaxDecodeBytes budget.
// Once a file fails, files after it are not started; every file before it
// is still decoded, so the error returned is that of the first bad file in
// the list whatever the scheduling (a MaxValues error excepted: which file
// crosses that limit depends on the order of decoding). Once ctx is done,
// no file is started and those being decoded stop at their next block;
// the error is then ctx.Err().
func decodeFiles(ctx context.Context, files []string, lim Limits) ([]*image.Gray, error) {
	lim = lim.withDefaults() // a zero budget would make every decoder wait
	pics := make([]*image.Gray, len(files))
	errs := make([]error, len(files))
	var (
		next   atomic.Int64 // index of the next file to decode
		total  atomic.Int64 // pixels reserved so far
		failed atomic.Int64 // lowest index that failed; len(files) if none
		wg     sync.WaitGroup
	)
	reserve := func(name string) func(int) error {
		return func(n int) error {
			if t := total.Add(int64(n)); t > int64(lim.MaxValues) {
				return errorf(dataset.ErrTooLarge, "%s: pictures so far hold %d pixels, over the limit of %d for a data set (MaxValues)", name, t, lim.MaxValues)
			}
			return nil
		}
	}
	mem := newMemBudget(lim.MaxDecodeBytes)
	failed.Store(int64(len(files)))
	workers := min(runtime.GOMAXPROCS(0), len(files))
	for range workers {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= failed.Load() || atomicfile.Done(ctx) {
					return
				}
				pics[i], errs[i] = loadImage(ctx, files[i], lim, reserve(files[i]), mem)
				if errs[i] == nil {
					continue
				}
				for f := failed.Load(); i < f && !failed.CompareAndSwap(f, i); f = failed.Load() {
				}
			}
		})
	}
	wg.Wait()
	if atomicfile.Done(ctx) {
		return nil, ctx.Err()
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return pics, nil
}

// loadImage is LoadImage with a reserve hook and a memory budget (see
// decodeGray), read in blocks that look at ctx first.
func loadImage(ctx context.Context, path string, lim Limits, reserve func(int) error, mem *memBudget) (*image.Gray, error) {
	f, err := atomicfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decodeGray(atomicfile.ContextReader(ctx, f), path, lim, reserve, mem)
}

// memBudget is a weighted semaphore of bytes: decoders running at once take
// their estimated memory from it and wait while it is short.
type memBudget struct {
	mu   sync.Mutex
	cond sync.Cond
	free int
}

func newMemBudget(total int) *memBudget {
	b := &memBudget{free: total}
	b.cond.L = &b.mu
	return b
}

// acquire takes n bytes, waiting until they are free; n must not exceed
// the total (decodeGray refuses such pictures before asking).
func (b *memBudget) acquire(n int) {
	b.mu.Lock()
	for b.free < n {
		b.cond.Wait()
	}
	b.free -= n
	b.mu.Unlock()
}

// release gives back n bytes taken by acquire.
func (b *memBudget) release(n int) {
	b.mu.Lock()
	b.free += n
	b.mu.Unlock()
	b.cond.Broadcast()
}
