package web

import (
	"context"
	"fmt"

	"github.com/adtest/adtest/drivers"
)

// Local versus remote browser is a choice of constructor (as chromedp's
// ExecAllocator and RemoteAllocator are): NewLocal starts Chromium itself,
// NewRemote attaches to a browser that runs elsewhere (--cdp-url: a
// browserless or Selenium Grid endpoint, a self-hosted pool).

// NewLocal returns a provider that starts a local Chromium on first use
// (opts.BrowserPath, else ADTEST_CHROME, else one on PATH).
func NewLocal(opts Options) (*Provider, error) {
	if opts.CDPURL != "" {
		return nil, fmt.Errorf("%w: web.NewLocal with a CDP URL: use web.NewRemote", drivers.ErrInfrastructure)
	}
	return NewProvider(opts)
}

// NewRemote returns a provider attached to the browser at cdpURL (ws://...,
// or http://host:9222 resolved through /json/version). Options that start a
// browser (BrowserPath, BrowserPerWorker, NoSandbox) do not apply.
func NewRemote(cdpURL string, opts Options) (*Provider, error) {
	if cdpURL == "" {
		return nil, fmt.Errorf("%w: web.NewRemote needs a CDP URL", drivers.ErrInfrastructure)
	}
	opts.CDPURL = cdpURL
	return NewProvider(opts)
}

// NewGrid returns a provider whose workers each take a browser from the
// Selenium Grid 4 at g.URL (grid.go). It asks the Grid for its status and
// opens the first worker's session before it returns, so that a Grid that
// is not there, not a Grid, refuses the credentials or the capabilities
// fails here, once, before any test runs. Options that start a browser
// (BrowserPath, CDPURL) do not apply.
func NewGrid(ctx context.Context, g GridOptions, opts Options) (*Provider, error) {
	opts.Grid = &g
	p, err := NewProvider(opts)
	if err != nil {
		return nil, err
	}
	if err := p.grid.check(ctx); err != nil {
		return nil, err
	}
	if _, err := p.browser(ctx, 0); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}
