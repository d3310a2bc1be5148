package android_test

import (
	"context"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/android"
	"github.com/adtest/adtest/internal/testsupport/drivertest"
	"github.com/adtest/adtest/internal/testsupport/fakedevice"
)

// TestConformance: the driver contract, on the fake device behind the real
// adb server.
func TestConformance(t *testing.T) {
	r := newRig(t, fakedevice.Options{}, android.Options{})
	r.s.Close(context.Background()) // the rig's own session frees the device
	drivertest.Run(t, drivertest.Fixture{
		New: func(t *testing.T) drivers.Driver {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			d, err := r.prov.NewSession(ctx, drivers.SessionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			return d
		},
		Open:  drivers.OpenRequest{Target: "com.adtest.demo"},
		Label: "Sign in to Acme",
	})
}
