// Package frame is the ref frame of ADR 0014: a session's one
// mutation-authorization namespace. Frame's fields are unexported, so no
// package but this one can construct a frame, edit one, or derive one from
// another: the compiler holds what a field-owner test used to. Every
// transition is a value method that returns a new frame and never edits the
// receiver; the issued set and the evidence capture a frame points to are
// never mutated after construction. What the type cannot judge is a whole
// frame moved unchanged (the zero Frame, another session's frame); the
// runner's gate test covers the session's one assignment site.
package frame

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// Capture is one immutable capture plus the ref namespace it prints:
// Refs[k-1] is the node index of @ek. Captures are shared, never copied,
// between the session's latest-observation slot and a frame.
type Capture struct {
	Snap *drivers.Snapshot
	Opts drivers.SnapshotOptions
	Refs []int
}

// Ref is a ref as a command gave it (lang's one ref type).
type Ref = lang.Ref

// Lineage is the admitted semantic scope of a `snapshot -s @ref`
// (ADR 0014, repeated scoped snapshots): not a tree, not mutation authority.
type Lineage struct {
	Ref   string // the scope ref as written, without pin
	Role  string
	Label string
	ID    string
}

// Frame is the session's mutation-authorization namespace.
type Frame struct {
	present bool
	epoch   int64
	obs     *Capture // immutable evidence tree
	expired bool
	// issued is nil for scope "all"; else the issued ref numbers (never mutated).
	issued  map[int]struct{}
	lineage *Lineage
}

// NewLifetime starts a session's frame lifetime: no frame yet, and a
// seeded random epoch base so a new session rejects old pins (probabilistically).
func NewLifetime(seed int64) Frame {
	var r *rand.Rand
	if seed == 0 {
		r = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	} else {
		r = rand.New(rand.NewPCG(uint64(seed), uint64(seed)>>1|1))
	}
	return Frame{epoch: 1 + r.Int64N(900_000)}
}

// ActivateComplete publishes obs's complete namespace: a new active epoch
// with scope all. It shares obs; nothing is copied.
func (f Frame) ActivateComplete(obs *Capture) Frame {
	return Frame{present: true, epoch: f.epoch + 1, obs: obs}
}

// ActivateScoped is a complete activation from a `snapshot -s @ref` capture
// that carries the admitted semantic scope for consecutive repetitions.
func (f Frame) ActivateScoped(obs *Capture, l Lineage) Frame {
	return Frame{present: true, epoch: f.epoch + 1, obs: obs, lineage: &l}
}

// PublishPartial publishes a bounded set of refs of obs (find, divergence
// screens, ambiguity candidates). An empty publication changes nothing.
func (f Frame) PublishPartial(obs *Capture, refs []int) Frame {
	if len(refs) == 0 {
		return f
	}
	issued := make(map[int]struct{}, len(refs))
	for _, n := range refs {
		issued[n] = struct{}{}
	}
	return Frame{present: true, epoch: f.epoch + 1, obs: obs, issued: issued}
}

// Expire is the side-effect seam transition: active -> expired, advancing
// the epoch once (a pin of the expired frame then names a previous epoch, as
// in ADR 0014's example: minted 42, current 43); idempotent afterwards. It
// also ends any scope lineage.
func (f Frame) Expire() Frame {
	if !f.present || f.expired {
		return f
	}
	g := f
	g.expired = true
	g.epoch++
	g.lineage = nil
	return g
}

// CloseSession drops the frame when the session ends; the epoch stays
// monotonic for the session value.
func (f Frame) CloseSession() Frame {
	return Frame{epoch: f.epoch}
}

// Generation is the current epoch (refsGeneration).
func (f Frame) Generation() int64 { return f.epoch }

// IsActive reports an active frame.
func (f Frame) IsActive() bool { return f.present && !f.expired }

// IsComplete reports scope all.
func (f Frame) IsComplete() bool { return f.present && f.issued == nil }

// Evidence returns the frame's retained Capture (nil without a frame).
func (f Frame) Evidence() *Capture { return f.obs }

// ScopeDetail renders the scope for error details: "all" or the sorted
// issued ref bodies.
func (f Frame) ScopeDetail() any {
	if !f.present {
		return "none"
	}
	if f.issued == nil {
		return "all"
	}
	ns := make([]int, 0, len(f.issued))
	for n := range f.issued {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = "@e" + strconv.Itoa(n)
	}
	return out
}

// LineageFor returns the lineage when the immediately preceding publication
// was a scoped capture of the same ref, the frame is still active, and no
// effect has crossed the seam since.
func (f Frame) LineageFor(ref string) (Lineage, bool) {
	if f.lineage == nil || !f.IsActive() || f.lineage.Ref != ref {
		return Lineage{}, false
	}
	return *f.lineage, true
}

// Hint is what a rejected ref should do next.
const Hint = "Capture a fresh interactive snapshot (snapshot -i) or use a stable selector, then retry."

// Rejection is a typed admission failure (ADR 0014 reasons); the runner
// turns it into its structured error.
type Rejection struct {
	Reason  drivers.Reason
	Message string
	Details map[string]any
}

func (r *Rejection) Error() string { return r.Message }

func (f Frame) reject(reason drivers.Reason, r Ref, msg string) *Rejection {
	d := map[string]any{
		"reason":            string(reason),
		"ref":               r.Plain(),
		"currentGeneration": f.epoch,
		"scope":             f.ScopeDetail(),
	}
	if r.Pinned {
		d["mintedGeneration"] = r.Pin
	}
	return &Rejection{Reason: reason, Message: msg, Details: d}
}

// AdmitMutation admits a ref for a mutating command (ADR 0014 admission, in
// the order ref_frame_expired -> ref_generation_mismatch ->
// plain_ref_requires_complete_frame -> ref_not_issued) and returns the node
// index in the frame's own tree.
func (f Frame) AdmitMutation(r Ref) (int, *Rejection) {
	if !f.present {
		return -1, f.reject(drivers.ReasonRefFrameMissing, r, fmt.Sprintf("Ref %s cannot be used: no snapshot has published refs in this session", r.Plain()))
	}
	if f.expired {
		return -1, f.reject(drivers.ReasonRefFrameExpired, r, fmt.Sprintf("Ref %s belongs to an expired ref frame — a device action since the snapshot invalidated it", r.Plain()))
	}
	if r.Pinned && r.Pin != f.epoch {
		return -1, f.reject(drivers.ReasonRefGenerationMismatch, r, fmt.Sprintf("Ref %s was minted from a superseded snapshot generation", r.Plain()))
	}
	if f.issued != nil && !r.Pinned {
		return -1, f.reject(drivers.ReasonPlainRefRequiresCompleteFrame, r, fmt.Sprintf("Ref %s needs a complete snapshot — the current frame only authorizes its emitted refs", r.Plain()))
	}
	if f.issued != nil {
		if _, ok := f.issued[r.N]; !ok {
			return -1, f.reject(drivers.ReasonRefNotIssued, r, fmt.Sprintf("Ref %s was not issued by the current ref frame", r.Plain()))
		}
	}
	return f.lookup(r)
}

func (f Frame) lookup(r Ref) (int, *Rejection) {
	if r.N < 1 || r.N > len(f.obs.Refs) {
		return -1, f.reject(drivers.ReasonRefNotFound, r, fmt.Sprintf("Ref %s was not found in the current ref frame (%d refs)", r.Plain(), len(f.obs.Refs)))
	}
	return f.obs.Refs[r.N-1], nil
}

// ReadRef resolves a ref for a read-only consumer. It answers from the
// frame's retained tree only: an expired frame that holds the ref's evidence
// answers with a staleness warning; missing evidence (no frame, another epoch,
// a ref the frame never issued) fails rather than resolving positionally in a
// newer Capture.
func (f Frame) ReadRef(r Ref) (int, string, *Rejection) {
	if !f.present {
		return -1, "", f.reject(drivers.ReasonRefFrameMissing, r, fmt.Sprintf("Ref %s cannot be used: no snapshot has published refs in this session", r.Plain()))
	}
	if r.Pinned && r.Pin != f.epoch {
		return -1, "", f.reject(drivers.ReasonRefGenerationMismatch, r, fmt.Sprintf("Ref %s was minted from a superseded snapshot generation", r.Plain()))
	}
	if f.issued != nil {
		if _, ok := f.issued[r.N]; !ok {
			return -1, "", f.reject(drivers.ReasonRefNotIssued, r, fmt.Sprintf("Ref %s was not issued by the current ref frame", r.Plain()))
		}
	}
	idx, err := f.lookup(r)
	if err != nil {
		return -1, "", err
	}
	warn := ""
	if f.expired {
		warn = fmt.Sprintf("Ref %s is stale: its ref frame expired after a device action; answered from the retained snapshot (refsGeneration %d)", r.Plain(), f.epoch)
	}
	return idx, warn, nil
}
