package android

import (
	"context"

	"github.com/adtest/adtest/drivers"
)

// CloseApp implements drivers.AppCloser: a script's close force-stops the
// app; the session keeps the device, so a later open starts it again. Close
// releases the session (and the device lease) itself.
func (s *Session) CloseApp(ctx context.Context) error {
	if err := s.live(); err != nil {
		return err
	}
	s.mu.Lock()
	pkg := s.pkg
	s.appOpen = false
	s.mu.Unlock()
	if pkg == "" {
		return nil
	}
	_, err := s.sh(ctx, "am force-stop "+pkg)
	return err
}

var _ drivers.AppCloser = (*Session)(nil)
