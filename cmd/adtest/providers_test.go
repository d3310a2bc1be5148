package main

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/fake"
)

// run and the daemon open their drivers through openProvider: these are
// the answers that do not need a browser or an adb server.
func TestOpenProvider(t *testing.T) {
	t.Parallel()
	env := &Env{Cwd: t.TempDir(), Getenv: func(string) string { return "" }}
	_, err := openProvider(context.Background(), env, providerOptions{}, "ios")
	if !errors.Is(err, drivers.ErrInfrastructure) || err.Error() != `infrastructure failure: no driver for platform "ios" (adtest runs web and android)` {
		t.Errorf("an unknown platform: %v", err)
	}
	screens, err := filepath.Abs("../../examples/android/app.screens")
	if err != nil {
		t.Fatal(err)
	}
	for _, platform := range []string{drivers.PlatformWeb, drivers.PlatformAndroid} {
		p, err := openProvider(context.Background(), env, providerOptions{fakeDevice: screens}, platform)
		if err != nil {
			t.Fatalf("%s on the fake device: %v", platform, err)
		}
		if _, ok := p.(*fake.Provider); !ok {
			t.Errorf("%s with a fake device opened %T, want the fake provider", platform, p)
		}
		p.Close()
	}
}
