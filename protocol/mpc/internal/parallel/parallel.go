// Package parallel runs the independent pieces of a secure computation
// (the λ garblings of a try, the batches of an OT extension) on several
// goroutines.
package parallel

import "sync"

// Each runs f for every i < n on up to workers goroutines (at least one)
// and returns the error of every i, in order.
func Each(n, workers int, f func(i int) error) []error {
	errs := make([]error, n)
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range max(1, min(workers, n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = f(i)
			}
		}()
	}
	wg.Wait()
	return errs
}
