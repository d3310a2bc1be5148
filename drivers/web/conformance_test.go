package web

import (
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/internal/testsupport/drivertest"
)

func TestConformance(t *testing.T) {
	drivertest.Run(t, drivertest.Fixture{
		New:   func(t *testing.T) drivers.Driver { return openSession(t, prov, "") },
		Open:  drivers.OpenRequest{Target: srv.URL + "/basic.html"},
		Label: "Welcome",
	})
}
