package svm

// cache keeps recently used rows of the matrix Q_ij = y_i y_j k(x_i, x_j)
// in float32, like LIBSVM's Qfloat cache, under a memory budget. Rows are
// indexed by the solver's current positions; a row holds the entries
// [0, len) computed so far, so a row needed only over the active set is
// computed only there and extended later if the whole row is wanted.
//
// Every row lives in a slot of capacity n float32s, at most max(budget, 2
// rows) bytes of them, cut from its rowStore's chunks: slots are taken in
// order as rows are first needed and then recycled from the least recently
// used row, so a full solver run allocates no garbage here, and memory is
// allocated, and touched, only as far as slots have been used.
type cache struct {
	n        int
	maxSlots int
	store    *rowStore   // the slots' storage
	slots    int         // slots taken so far
	rows     [][]float32 // rows[i] is nil or the computed part of row i
	spare    [][]float32 // free slots
	// LRU list over positions with sentinel n: next[n] is the least
	// recently used row, prev[n] the most recently used.
	prev, next []int32
}

// rowBytes is the memory of one slot.
func rowBytes(n int) int64 { return 4 * int64(n) }

// cacheSlots is the number of rows of length n a cache of budget bytes
// holds: at least two (at most n).
func cacheSlots(n int, budget int64) int {
	slots := budget / rowBytes(max(n, 1))
	return int(min(max(slots, 2), int64(n)))
}

// rowStore is the storage of the kernel caches, and of the gathered
// float32 rows, of problems solved one after another, as the pairs of a
// multi-class fit are on each goroutine: each problem takes its cache
// slots and rows from the same blocks, so that memory is allocated once,
// not once per problem, and a finished problem's is never garbage left
// for the collector while the next problem's fills.
//
// The slots are allocated a chunk at a time, as a cache first takes them:
// a problem's cache seldom fills its budget (on Fashion-MNIST's 10 classes,
// 10k rows, the largest pair of a fold of cross-validation took 753 of its
// 1,630 slots), and one block of the whole budget would be cleared, and so
// made resident, by the runtime when it reuses the memory of earlier
// garbage (a fold after a fold).
type rowStore struct {
	chunks [][]float32 // the caches' slots, chunkEntries (or one slot) a chunk
	size   int         // the entries the caches it serves may take at most
	rows   []float32   // a problem's float32 rows in its order (vectors.setF32)
	most   int         // the rows of the largest problem it serves
}

// chunkEntries is the size of a chunk of a rowStore's slots: 256 KB.
const chunkEntries = 1 << 16

// newRowStore returns a store for the caches of problems of at most n rows
// within budget bytes: room for the largest cache of any such problem, the
// budget (or two rows) but no more than the whole matrix, so that no
// problem's cache outgrows it (cacheSlots rounds down a row at a time, and
// a smaller problem's rows may fill the budget more closely). Its memory
// is allocated as the caches take slots.
func newRowStore(n int, budget int64) *rowStore {
	return &rowStore{size: int(min(max(budget/4, 2*int64(n)), int64(n)*int64(n))), most: n}
}

// slot returns slot k of a cache whose rows have n entries: a chunk's
// slots, in order, the chunk allocated when first needed (or grown when a
// problem with longer rows used the store before).
func (s *rowStore) slot(k, n int) []float32 {
	per := max(1, chunkEntries/n) // slots a chunk
	q, off := k/per, k%per*n
	for len(s.chunks) <= q {
		s.chunks = append(s.chunks, nil)
	}
	if len(s.chunks[q]) < per*n {
		s.chunks[q] = make([]float32, max(chunkEntries, n))
	}
	return s.chunks[q][off : off : off+n]
}

// bytes returns the memory the store holds.
func (s *rowStore) bytes() int {
	b := 4 * len(s.rows)
	for _, c := range s.chunks {
		b += 4 * len(c)
	}
	return b
}

// gathered returns room for rows float32 rows of dim entries: the store's
// one block, made at the first problem that needs more room with room for
// the largest problem's rows, so that the pairs of a fold, met small and
// large in turn, do not leave a trail of outgrown blocks (Fashion-MNIST's
// 10 classes, 10k rows, five folds: 101 MB of blocks allocated, 20 a fold,
// before issue 39).
func (s *rowStore) gathered(rows, dim int) []float32 {
	if s == nil {
		return make([]float32, rows*dim)
	}
	if len(s.rows) < rows*dim {
		s.rows = make([]float32, max(rows, s.most)*dim)
	}
	return s.rows[:rows*dim]
}

// newCache returns a cache for n rows of length n within budget bytes,
// its slots taken from store (its own when store is nil). The previous
// cache taken from store must no longer be in use.
func newCache(n int, budget int64, store *rowStore) *cache {
	slots := cacheSlots(n, budget)
	if store == nil {
		store = &rowStore{}
	}
	c := &cache{
		n:        n,
		maxSlots: slots,
		store:    store,
		rows:     make([][]float32, n),
		prev:     make([]int32, n+1),
		next:     make([]int32, n+1),
	}
	c.prev[n], c.next[n] = int32(n), int32(n)
	return c
}

// bytes returns the memory held by the slots allocated so far.
func (c *cache) bytes() int64 { return int64(c.slots) * rowBytes(c.n) }

func (c *cache) unlink(i int) {
	p, nx := c.prev[i], c.next[i]
	c.next[p], c.prev[nx] = nx, p
}

func (c *cache) pushMRU(i int) {
	s := int32(c.n)
	p := c.prev[s]
	c.next[p], c.prev[i] = int32(i), p
	c.next[i], c.prev[s] = s, int32(i)
}

// get returns row i extended to length and the number start of leading
// entries that are already computed; the caller computes [start, length).
// Row i becomes the most recently used, so a row obtained by an earlier
// get stays valid across one more get.
func (c *cache) get(i, length int) (row []float32, start int) {
	r := c.rows[i]
	if r != nil {
		c.unlink(i)
	} else {
		r = c.slot()
	}
	start = len(r)
	if length > start {
		r = r[:length]
	} else {
		start = length
	}
	c.rows[i] = r
	c.pushMRU(i)
	return r, start
}

// slot returns an empty slot, evicting the least recently used row if the
// budget is spent.
func (c *cache) slot() []float32 {
	if k := len(c.spare); k > 0 {
		s := c.spare[k-1]
		c.spare = c.spare[:k-1]
		return s
	}
	if c.slots < c.maxSlots {
		c.slots++
		return c.store.slot(c.slots-1, c.n)
	}
	lru := int(c.next[c.n])
	s := c.rows[lru][:0]
	c.rows[lru] = nil
	c.unlink(lru)
	return s
}

// drop frees row i.
func (c *cache) drop(i int) {
	if c.rows[i] != nil {
		c.spare = append(c.spare, c.rows[i][:0])
		c.rows[i] = nil
		c.unlink(i)
	}
}

// swap exchanges positions i and j: the rows themselves and the entries i
// and j within every cached row. A row computed past i but not past j
// (i < j) is cut back to length i, where it is still right.
func (c *cache) swap(i, j int) {
	if i == j {
		return
	}
	ri, rj := c.rows[i], c.rows[j]
	if ri != nil {
		c.unlink(i)
	}
	if rj != nil {
		c.unlink(j)
	}
	c.rows[i], c.rows[j] = rj, ri
	if rj != nil {
		c.pushMRU(i)
	}
	if ri != nil {
		c.pushMRU(j)
	}
	if i > j {
		i, j = j, i
	}
	for h := int(c.next[c.n]); h != c.n; {
		nx := int(c.next[h])
		r := c.rows[h]
		if len(r) > i {
			if len(r) > j {
				r[i], r[j] = r[j], r[i]
			} else if i == 0 {
				c.drop(h)
			} else {
				c.rows[h] = r[:i]
			}
		}
		h = nx
	}
}
