package html

import (
	"encoding/json"

	"github.com/adtest/adtest/runner/trace"
)

// An attempt's trace in the report: trace.json is read through
// Options.ReadFile and embedded in the page's data; its pictures are copied
// under data/ (JPEGs only, by content hash) and referenced by relative
// path, so the viewer (assets/trace.js) works from file:// and from a
// downloaded artifact without fetching anything.

// maxTraceNodes bounds the tree nodes a report embeds per trace.
const maxTraceNodes = 20000

// trace reads the trace of an attempt, or returns nil.
func (b *builder) trace(dir string) *trace.Data {
	if dir == "" {
		return nil
	}
	data, ok := b.read(joinPath(dir, trace.File))
	if !ok {
		return nil
	}
	var t trace.Data
	if json.Unmarshal(data, &t) != nil {
		return nil
	}
	pic := func(name string) string {
		if name == "" {
			return ""
		}
		return b.embed(joinPath(dir, name), jpegPicture)
	}
	t.Start = pic(t.Start)
	for i := range t.Steps {
		st := &t.Steps[i]
		st.Before, st.After = pic(st.Before), pic(st.After)
	}
	n := 0
	for i, tree := range t.Trees {
		if n += len(tree); n > maxTraceNodes {
			t.Trees[i] = nil
		}
	}
	return &t
}
