package parallel

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// TestEachRunsEveryIndexOnce: every index runs once, its error lands at
// its index, and no more than workers run at a time.
func TestEachRunsEveryIndexOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 64} {
		var runs [10]atomic.Int32
		var running, most atomic.Int32
		errs := Each(len(runs), workers, func(i int) error {
			n := running.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			defer running.Add(-1)
			time.Sleep(2 * time.Millisecond) // long enough to overlap the others
			runs[i].Add(1)
			if i%3 == 0 {
				return errors.New("odd one")
			}
			return nil
		})
		for i := range runs {
			if runs[i].Load() != 1 {
				t.Errorf("workers %d: index %d ran %d times", workers, i, runs[i].Load())
			}
			if (errs[i] != nil) != (i%3 == 0) {
				t.Errorf("workers %d: error of index %d: %v", workers, i, errs[i])
			}
		}
		if limit := max(1, min(workers, len(runs))); most.Load() > int32(limit) || workers >= 3 && most.Load() < 2 {
			t.Errorf("workers %d: %d ran at once", workers, most.Load())
		}
	}
}
