package lang

import (
	"fmt"
	"strings"
)

// CompatSummary is the one-line human summary of a file (adtest parse
// without --json): its first error as file:line:col: message, or its
// action count and header.
func CompatSummary(name string, src []byte, c *Compat) string {
	if !c.OK() {
		_, err := Parse(name, src)
		if e, ok := AsError(err); ok {
			return e.Error()
		}
	}
	var meta []string
	if c.Metadata.Platform != "" {
		meta = append(meta, "platform "+c.Metadata.Platform)
	}
	if c.Metadata.Target != "" {
		meta = append(meta, "target "+c.Metadata.Target)
	}
	if n := len(c.Metadata.Env); n > 0 {
		meta = append(meta, fmt.Sprintf("%d env", n))
	}
	s := fmt.Sprintf("%s: ok, %d actions", c.File, len(c.Actions))
	if len(meta) > 0 {
		s += " (" + strings.Join(meta, ", ") + ")"
	}
	return s
}
