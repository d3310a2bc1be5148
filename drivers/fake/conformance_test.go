package fake_test

import (
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/fake"
	"github.com/adtest/adtest/internal/testsupport/drivertest"
)

func TestConformance(t *testing.T) {
	screens, err := fake.ParseScreens("screens.txt", "open demo -> login\nscreen login \"Sign in\"\n  heading \"Welcome\"\n  button \"Sign in\" id=signin\n")
	if err != nil {
		t.Fatal(err)
	}
	drivertest.Run(t, drivertest.Fixture{
		New:   func(t *testing.T) drivers.Driver { return fake.New(screens, fake.Options{}) },
		Open:  drivers.OpenRequest{Target: "demo"},
		Label: "Welcome",
	})
}
