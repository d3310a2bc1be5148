package runner

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/runner/match"
)

// printedNodes returns the node indexes a snapshot prints with opts, in
// document order: the scope subtree (-s TEXT: the first node whose label or
// text matches), interactive nodes only with -i, structural nodes pruned
// unless --raw, and a depth limit with -d. Refs e1..eN follow this order.
func printedNodes(snap *drivers.Snapshot, opts drivers.SnapshotOptions) []int {
	if snap == nil {
		return nil
	}
	lo, hi := 0, len(snap.Nodes)
	if opts.Scope != "" {
		root := scopeRoot(snap, opts.Scope)
		if root < 0 {
			return nil
		}
		lo, hi = root, subtreeEnd(snap, root)
	}
	base := 0
	if lo < hi {
		base = snap.Nodes[lo].Depth
	}
	out := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		n := &snap.Nodes[i]
		if opts.Depth > 0 && n.Depth-base >= opts.Depth {
			continue
		}
		if n.Part || opts.Interactive && !n.Interactive {
			continue
		}
		if !opts.Raw && !opts.Interactive && !n.Interactive && n.Label == "" && n.Text == "" && n.Value == "" && n.ID == "" {
			continue
		}
		out = append(out, i)
	}
	return out
}

// scopeRoot is the first node whose normalised label or text equals scope,
// else the first that contains it; never a part (its text node is).
func scopeRoot(snap *drivers.Snapshot, scope string) int {
	want := match.NormText(scope)
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		if !n.Part && (match.NormText(n.Label) == want || match.NormText(n.Text) == want) {
			return i
		}
	}
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		if !n.Part && (strings.Contains(match.NormText(n.Label), want) || strings.Contains(match.NormText(n.Text), want)) {
			return i
		}
	}
	return -1
}

// subtreeEnd returns one past the last node of i's subtree.
func subtreeEnd(snap *drivers.Snapshot, i int) int {
	j := i + 1
	for j < len(snap.Nodes) && snap.Nodes[j].Depth > snap.Nodes[i].Depth {
		j++
	}
	return j
}

func newObservation(snap *drivers.Snapshot, opts drivers.SnapshotOptions) *observation {
	return &observation{Snap: snap, Opts: opts, Refs: printedNodes(snap, opts)}
}

// FormatSnapshotText renders a snapshot one node per line, like
// agent-device: `@e3 [button] "Sign in"`, indented two spaces per printed
// ancestor, with value and state markers. Refs are plain (never pinned).
func FormatSnapshotText(snap *drivers.Snapshot, opts drivers.SnapshotOptions) string {
	return formatObservation(newObservation(snap, opts), "")
}

// formatObservation renders obs; pin, when not empty, is appended to every
// ref (`~s42`) for partial publications.
func formatObservation(obs *observation, pin string) string {
	var b strings.Builder
	depthOf := make(map[int]int, len(obs.Refs))
	for k, idx := range obs.Refs {
		n := &obs.Snap.Nodes[idx]
		d := 0
		for p := n.Parent; p >= 0; p = obs.Snap.Nodes[p].Parent {
			if pd, ok := depthOf[p]; ok {
				d = pd + 1
				break
			}
		}
		depthOf[idx] = d
		b.WriteString(strings.Repeat("  ", d))
		writeNodeLine(&b, n, k+1, pin)
		b.WriteByte('\n')
	}
	return b.String()
}

func writeNodeLine(b *strings.Builder, n *drivers.Node, ref int, pin string) {
	b.WriteString("@e")
	b.WriteString(strconv.Itoa(ref))
	b.WriteString(pin)
	b.WriteString(" [")
	b.WriteString(n.Role)
	b.WriteByte(']')
	label := n.Label
	if label == "" {
		label = n.Text
	}
	if label != "" {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(label))
	}
	if n.Value != "" && n.Value != label {
		b.WriteString(" value=")
		b.WriteString(strconv.Quote(n.Value))
	}
	if n.ID != "" {
		b.WriteString(" id=")
		b.WriteString(strconv.Quote(n.ID))
	}
	if !n.Enabled && n.Interactive {
		b.WriteString(" [disabled]")
	}
	if n.Selected {
		b.WriteString(" [selected]")
	}
	if n.Focused {
		b.WriteString(" [focused]")
	}
	if n.Unseen != "" {
		b.WriteString(" [")
		b.WriteString(n.Unseen)
		b.WriteString(": adtest cannot see inside]")
	}
}

// snapshotJSON is the JSON form of a snapshot: refsGeneration once at the top.
type snapshotJSON struct {
	RefsGeneration int64      `json:"refsGeneration"`
	URL            string     `json:"url,omitempty"`
	Title          string     `json:"title,omitempty"`
	Nodes          []nodeJSON `json:"nodes"`
}

type nodeJSON struct {
	Ref    string       `json:"ref"`
	Role   string       `json:"role"`
	Label  string       `json:"label,omitempty"`
	ID     string       `json:"id,omitempty"`
	Text   string       `json:"text,omitempty"`
	Value  string       `json:"value,omitempty"`
	Rect   drivers.Rect `json:"rect"`
	Depth  int          `json:"depth"`
	States []string     `json:"states,omitempty"`
}

// FormatSnapshotJSON renders obs as JSON with one response-level
// refsGeneration; node refs are plain bodies.
func formatSnapshotJSON(obs *observation, gen int64) ([]byte, error) {
	out := snapshotJSON{RefsGeneration: gen, URL: obs.Snap.URL, Title: obs.Snap.Title, Nodes: make([]nodeJSON, 0, len(obs.Refs))}
	for k, idx := range obs.Refs {
		n := &obs.Snap.Nodes[idx]
		var st []string
		for _, s := range []struct {
			on   bool
			name string
		}{{match.NodeVisible(n), "visible"}, {n.Editable, "editable"}, {n.Selected, "selected"}, {n.Focused, "focused"}, {!n.Enabled, "disabled"}, {n.Hittable, "hittable"}} {
			if s.on {
				st = append(st, s.name)
			}
		}
		out.Nodes = append(out.Nodes, nodeJSON{Ref: "e" + strconv.Itoa(k+1), Role: n.Role, Label: n.Label, ID: n.ID, Text: n.Text, Value: n.Value, Rect: n.Rect, Depth: n.Depth, States: st})
	}
	return json.Marshal(out)
}

// FormatSnapshotJSON renders a snapshot as JSON with refsGeneration gen.
func FormatSnapshotJSON(snap *drivers.Snapshot, opts drivers.SnapshotOptions, gen int64) ([]byte, error) {
	return formatSnapshotJSON(newObservation(snap, opts), gen)
}
