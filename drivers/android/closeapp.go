package android

import (
	"context"
	"fmt"

	"github.com/adtest/adtest/drivers"
)

// CloseApp implements drivers.AppCloser: a script's close force-stops the
// app; the session keeps the device, so a later open starts it again. Close
// releases the session (and the device lease) itself.
func (s *Session) CloseApp(ctx context.Context) error {
	s.mu.Lock()
	pkg, closed := s.pkg, s.closed
	s.mu.Unlock()
	if closed {
		return fmt.Errorf("android: %w", drivers.ErrClosed)
	}
	if pkg == "" {
		return nil
	}
	_, err := s.sh(ctx, "am force-stop "+pkg)
	return err
}

var _ drivers.AppCloser = (*Session)(nil)
