package adbtest

import "testing"

// TestFreePortReserved: a port FreePort hands out stays reserved, so no
// other FreePort caller on the machine (another test binary of a parallel
// go test ./...) draws it before its server binds.
func TestFreePortReserved(t *testing.T) {
	for range 20 {
		p, err := FreePort()
		if err != nil {
			t.Fatal(err)
		}
		if reserve(p) {
			t.Fatalf("port %d from FreePort was not reserved", p)
		}
	}
}
