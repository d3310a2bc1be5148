package pause

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestFor(t *testing.T) {
	if err := For(context.Background(), time.Millisecond); err != nil {
		t.Fatalf("a pause that ran out: %v", err)
	}
	if err := For(context.Background(), 0); err != nil {
		t.Fatalf("no pause on a live context: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := For(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("no pause on an ended context = %v, want context.Canceled", err)
	}
	start := time.Now()
	if err := For(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("an hour's pause on an ended context = %v, want context.Canceled", err)
	}
	if time.Since(start) > time.Minute {
		t.Fatal("the pause did not stop when its context ended")
	}
}
