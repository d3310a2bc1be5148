package main

import "time"

// tickEvery calls f every d until the returned stop is called; stop waits
// until f is no longer running.
func tickEvery(d time.Duration, f func()) (stop func()) {
	t := time.NewTicker(d)
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-t.C:
				f()
			case <-quit:
				return
			}
		}
	}()
	return func() {
		t.Stop()
		close(quit)
		<-done
	}
}
