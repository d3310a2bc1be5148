package web

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// ParseGridOptions reads the Grid's options as the command line and the
// environment give them (--grid URL, --grid-capabilities JSON or @FILE,
// --grid-timeout DURATION): nil without a URL. readFile reads an @FILE.
func ParseGridOptions(url, capabilities, timeout string, readFile func(string) ([]byte, error)) (*GridOptions, error) {
	if url == "" {
		if capabilities != "" || timeout != "" {
			return nil, fmt.Errorf("--grid-capabilities and --grid-timeout go with --grid (or ADTEST_GRID)")
		}
		return nil, nil
	}
	o := &GridOptions{URL: url, Capabilities: capabilities}
	if name, ok := strings.CutPrefix(capabilities, "@"); ok {
		b, err := readFile(name)
		if err != nil {
			return nil, fmt.Errorf("--grid-capabilities @%s: %v", filepath.ToSlash(name), err)
		}
		o.Capabilities = string(b)
	}
	if _, err := GridCapabilities(o.Capabilities, false); err != nil {
		return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "infrastructure failure: "))
	}
	if timeout != "" {
		d, err := time.ParseDuration(timeout)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("--grid-timeout %q: want a duration such as 5m or 90s", timeout)
		}
		o.Timeout = d
	}
	return o, nil
}
