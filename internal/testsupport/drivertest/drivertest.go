// Package drivertest is the conformance test of the drivers.Driver
// contract: every driver's tests call Run with a fixture (the fake, the web
// driver and the Android driver), so the contracts in drivers/driver.go
// are held by one test rather than read differently by each driver.
package drivertest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
)

// Fixture is what Run needs from a driver's tests.
type Fixture struct {
	// New returns a fresh session; Run closes it (and the fixture may too).
	New func(t *testing.T) drivers.Driver
	// Open opens the fixture app or page.
	Open drivers.OpenRequest
	// Label is the label (or text) of a node the opened screen shows.
	Label string
	// Timeout bounds each call (default 10 s).
	Timeout time.Duration
}

// Run checks the contracts of drivers/driver.go against f.
func Run(t *testing.T, f Fixture) {
	t.Helper()
	if f.Timeout <= 0 {
		f.Timeout = 10 * time.Second
	}
	ctx := func(t *testing.T) context.Context {
		c, cancel := context.WithTimeout(context.Background(), f.Timeout)
		t.Cleanup(cancel)
		return c
	}
	open := func(t *testing.T) drivers.Driver {
		t.Helper()
		d := f.New(t)
		t.Cleanup(func() { d.Close(context.Background()) })
		if d.Platform() == "" {
			t.Fatal("Platform() is empty")
		}
		if err := d.Open(ctx(t), f.Open); err != nil {
			t.Fatalf("Open %+v: %v", f.Open, err)
		}
		return d
	}

	t.Run("snapshot is the whole tree, in document order", func(t *testing.T) {
		d := open(t)
		snap, err := d.Snapshot(ctx(t), drivers.SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := wellFormed(snap); err != nil {
			t.Fatal(err)
		}
		if !shows(snap, f.Label) {
			t.Fatalf("the snapshot does not show %q:\n%s", f.Label, outline(snap))
		}
		// Raw may add structure, never lose a labelled node.
		raw, err := d.Snapshot(ctx(t), drivers.SnapshotOptions{Raw: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := wellFormed(raw); err != nil {
			t.Fatalf("raw: %v", err)
		}
		if !shows(raw, f.Label) {
			t.Fatalf("the raw snapshot does not show %q", f.Label)
		}
	})

	t.Run("snapshot does not change the screen", func(t *testing.T) {
		d := open(t)
		a, err := d.Snapshot(ctx(t), drivers.SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := d.Snapshot(ctx(t), drivers.SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if outline(a) != outline(b) {
			t.Fatalf("two snapshots differ:\n%s\nthen\n%s", outline(a), outline(b))
		}
	})

	t.Run("an unknown action is ErrUnsupported", func(t *testing.T) {
		d := open(t)
		err := d.Act(ctx(t), drivers.Action{Kind: "no-such-action"})
		if !errors.Is(err, drivers.ErrUnsupported) {
			t.Fatalf("Act(no-such-action) = %v, want an error wrapping drivers.ErrUnsupported", err)
		}
	})

	t.Run("close ends the app; the session opens it again", func(t *testing.T) {
		d := open(t)
		ac, ok := d.(drivers.AppCloser)
		if !ok {
			t.Fatalf("%T does not implement drivers.AppCloser (a script's close)", d)
		}
		if err := ac.CloseApp(ctx(t)); err != nil {
			t.Fatalf("CloseApp: %v", err)
		}
		if snap, err := d.Snapshot(ctx(t), drivers.SnapshotOptions{}); err == nil && shows(snap, f.Label) {
			t.Fatalf("after CloseApp the screen still shows %q", f.Label)
		}
		if err := d.Open(ctx(t), f.Open); err != nil {
			t.Fatalf("Open after CloseApp: %v", err)
		}
		snap, err := d.Snapshot(ctx(t), drivers.SnapshotOptions{})
		if err != nil || !shows(snap, f.Label) {
			t.Fatalf("after CloseApp and Open: %v, shows %q: %v", err, f.Label, snap != nil && shows(snap, f.Label))
		}
	})

	t.Run("release is final and idempotent", func(t *testing.T) {
		d := open(t)
		if err := d.Close(ctx(t)); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if err := d.Close(ctx(t)); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		closed := func(what string, err error) {
			t.Helper()
			if !errors.Is(err, drivers.ErrClosed) && !errors.Is(err, drivers.ErrInfrastructure) {
				t.Errorf("%s after Close = %v, want an error wrapping drivers.ErrClosed or ErrInfrastructure", what, err)
			}
		}
		_, err := d.Snapshot(ctx(t), drivers.SnapshotOptions{})
		closed("Snapshot", err)
		closed("Open", d.Open(ctx(t), f.Open))
		closed("Act", d.Act(ctx(t), drivers.Action{Kind: drivers.ActBack}))
	})
}

// wellFormed checks the tree shape every consumer relies on.
func wellFormed(s *drivers.Snapshot) error {
	if s == nil || len(s.Nodes) == 0 {
		return errors.New("the snapshot has no nodes")
	}
	for i, n := range s.Nodes {
		switch {
		case n.Parent >= i:
			return fmt.Errorf("node %d (%s) has parent %d, not before it", i, n.Role, n.Parent)
		case n.Parent < 0 && n.Depth != 0:
			return fmt.Errorf("root node %d (%s) has depth %d", i, n.Role, n.Depth)
		case n.Parent >= 0 && n.Depth != s.Nodes[n.Parent].Depth+1:
			return fmt.Errorf("node %d (%s) has depth %d under a parent of depth %d", i, n.Role, n.Depth, s.Nodes[n.Parent].Depth)
		case n.Role == "":
			return fmt.Errorf("node %d has no role", i)
		}
	}
	return nil
}

func shows(s *drivers.Snapshot, label string) bool {
	for _, n := range s.Nodes {
		if n.Label == label || n.Text == label {
			return true
		}
	}
	return false
}

func outline(s *drivers.Snapshot) string {
	var b strings.Builder
	for _, n := range s.Nodes {
		fmt.Fprintf(&b, "%s%s %q %q\n", strings.Repeat("  ", n.Depth), n.Role, n.Label, n.Text)
	}
	return b.String()
}
