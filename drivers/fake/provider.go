package fake

// The fake provider: a warm helper that hands out fresh devices.

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/adtest/adtest/drivers"
)

// Provider hands out fresh devices over one screens file (ADR 0002 stand-in).
type Provider struct {
	mu      sync.Mutex
	screens *Screens
	clock   Clock
	devices []*Device
	closed  bool
}

// NewProvider returns a provider of devices over s; clock may be nil (real time).
func NewProvider(s *Screens, clock Clock) *Provider {
	return &Provider{screens: s, clock: clock}
}

// LoadProvider reads a screens file and returns a provider over it.
func LoadProvider(path string) (*Provider, error) {
	s, err := LoadScreens(path)
	if err != nil {
		return nil, err
	}
	return NewProvider(s, nil), nil
}

// Platform implements drivers.Provider.
func (p *Provider) Platform() string { return drivers.PlatformFake }

// NewSession implements drivers.Provider: the Nth call returns session N.
func (p *Provider) NewSession(ctx context.Context, opts drivers.SessionOptions) (drivers.Driver, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, fmt.Errorf("%w: fake provider is closed", drivers.ErrInfrastructure)
	}
	d := New(p.screens, Options{Clock: p.clock, Session: len(p.devices) + 1})
	p.devices = append(p.devices, d)
	return d, nil
}

// Devices returns every device handed out, in order.
func (p *Provider) Devices() []*Device {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.devices)
}

// Close implements drivers.Provider.
func (p *Provider) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	return nil
}

var _ interface {
	drivers.Driver
	drivers.AlertHandler
	drivers.AttrReader
	drivers.LogTailer
	drivers.Preflighter
} = (*Device)(nil)

var _ drivers.Provider = (*Provider)(nil)
