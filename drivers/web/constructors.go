package web

import (
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
