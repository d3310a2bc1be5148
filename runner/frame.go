package runner

// The ref frame (ADR 0014). Only this file constructs, activates or expires a
// refFrame: its fields are unexported, every transition is a value method that
// returns a new frame and never edits the receiver, and the issued set and the
// evidence tree it points to are never mutated after construction. The session
// keeps exactly one frame value, separate from its latest observation.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/adtest/adtest/drivers"
)

// observation is one immutable capture plus the ref namespace it prints:
// refs[k-1] is the node index of @ek. Observations are shared, never copied,
// between the latest-observation slot and a frame.
type observation struct {
	snap *drivers.Snapshot
	opts drivers.SnapshotOptions
	refs []int
}

// refInput is a ref as a command gave it.
type refInput struct {
	Body   string // "@e3"
	N      int    // 3
	Pinned bool
	Pin    int64
}

// refFromTarget converts a decoded ref (lang.ParseRef) into a refInput.
func refFromParts(ref string, pin int, pinned bool) refInput {
	n, _ := strconv.Atoi(strings.TrimPrefix(ref, "@e"))
	return refInput{Body: ref, N: n, Pinned: pinned, Pin: int64(pin)}
}

// scopeLineage is the admitted semantic scope of a `snapshot -s @ref`
// (ADR 0014, repeated scoped snapshots): not a tree, not mutation authority.
type scopeLineage struct {
	ref   string // the scope ref as written, without pin
	role  string
	label string
	id    string
}

// refFrame is the session's mutation-authorization namespace.
type refFrame struct {
	present bool
	epoch   int64
	obs     *observation // immutable evidence tree
	expired bool
	// issued is nil for scope "all"; else the issued ref numbers (never mutated).
	issued  map[int]struct{}
	lineage *scopeLineage
}

// newFrameLifetime starts a session's frame lifetime: no frame yet, and a
// seeded random epoch base so a new session rejects old pins (probabilistically).
func newFrameLifetime(seed int64) refFrame {
	var r *rand.Rand
	if seed == 0 {
		r = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	} else {
		r = rand.New(rand.NewPCG(uint64(seed), uint64(seed)>>1|1))
	}
	return refFrame{epoch: 1 + r.Int64N(900_000)}
}

// activateComplete publishes obs's complete namespace: a new active epoch
// with scope all. It shares obs; nothing is copied.
func (f refFrame) activateComplete(obs *observation) refFrame {
	return refFrame{present: true, epoch: f.epoch + 1, obs: obs}
}

// activateScoped is a complete activation from a `snapshot -s @ref` capture
// that carries the admitted semantic scope for consecutive repetitions.
func (f refFrame) activateScoped(obs *observation, l scopeLineage) refFrame {
	return refFrame{present: true, epoch: f.epoch + 1, obs: obs, lineage: &l}
}

// publishPartial publishes a bounded set of refs of obs (find, divergence
// screens, ambiguity candidates). An empty publication changes nothing.
func (f refFrame) publishPartial(obs *observation, refs []int) refFrame {
	if len(refs) == 0 {
		return f
	}
	issued := make(map[int]struct{}, len(refs))
	for _, n := range refs {
		issued[n] = struct{}{}
	}
	return refFrame{present: true, epoch: f.epoch + 1, obs: obs, issued: issued}
}

// expire is the side-effect seam transition: active -> expired, advancing
// the epoch once (a pin of the expired frame then names a previous epoch, as
// in ADR 0014's example: minted 42, current 43); idempotent afterwards. It
// also ends any scope lineage.
func (f refFrame) expire() refFrame {
	if !f.present || f.expired {
		return f
	}
	g := f
	g.expired = true
	g.epoch++
	g.lineage = nil
	return g
}

// closeSession drops the frame when the session ends; the epoch stays
// monotonic for the session value.
func (f refFrame) closeSession() refFrame {
	return refFrame{epoch: f.epoch}
}

// generation is the current epoch (refsGeneration).
func (f refFrame) generation() int64 { return f.epoch }

// isActive reports an active frame.
func (f refFrame) isActive() bool { return f.present && !f.expired }

// isComplete reports scope all.
func (f refFrame) isComplete() bool { return f.present && f.issued == nil }

// evidence returns the frame's retained observation (nil without a frame).
func (f refFrame) evidence() *observation { return f.obs }

// scopeDetail renders the scope for error details: "all" or the sorted
// issued ref bodies.
func (f refFrame) scopeDetail() any {
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

// lineageFor returns the lineage when the immediately preceding publication
// was a scoped capture of the same ref, the frame is still active, and no
// effect has crossed the seam since.
func (f refFrame) lineageFor(ref string) (scopeLineage, bool) {
	if f.lineage == nil || !f.isActive() || f.lineage.ref != ref {
		return scopeLineage{}, false
	}
	return *f.lineage, true
}

const refHint = "Capture a fresh interactive snapshot (snapshot -i) or use a stable selector, then retry."

func (f refFrame) reject(reason string, r refInput, msg string) *ErrorInfo {
	d := map[string]any{
		"reason":            reason,
		"ref":               r.Body,
		"currentGeneration": f.epoch,
		"scope":             f.scopeDetail(),
	}
	if r.Pinned {
		d["mintedGeneration"] = r.Pin
	}
	return &ErrorInfo{Code: CodeCommandFailed, Reason: reason, Message: msg, Hint: refHint, Details: d}
}

// admitMutation admits a ref for a mutating command (ADR 0014 admission, in
// the order ref_frame_expired -> ref_generation_mismatch ->
// plain_ref_requires_complete_frame -> ref_not_issued) and returns the node
// index in the frame's own tree.
func (f refFrame) admitMutation(r refInput) (int, *ErrorInfo) {
	if !f.present {
		return -1, f.reject("ref_frame_missing", r, fmt.Sprintf("Ref %s cannot be used: no snapshot has published refs in this session", r.Body))
	}
	if f.expired {
		return -1, f.reject("ref_frame_expired", r, fmt.Sprintf("Ref %s belongs to an expired ref frame — a device action since the snapshot invalidated it", r.Body))
	}
	if r.Pinned && r.Pin != f.epoch {
		return -1, f.reject("ref_generation_mismatch", r, fmt.Sprintf("Ref %s was minted from a superseded snapshot generation", r.Body))
	}
	if f.issued != nil && !r.Pinned {
		return -1, f.reject("plain_ref_requires_complete_frame", r, fmt.Sprintf("Ref %s needs a complete snapshot — the current frame only authorizes its emitted refs", r.Body))
	}
	if f.issued != nil {
		if _, ok := f.issued[r.N]; !ok {
			return -1, f.reject("ref_not_issued", r, fmt.Sprintf("Ref %s was not issued by the current ref frame", r.Body))
		}
	}
	return f.lookup(r)
}

func (f refFrame) lookup(r refInput) (int, *ErrorInfo) {
	if r.N < 1 || r.N > len(f.obs.refs) {
		return -1, f.reject("ref_not_found", r, fmt.Sprintf("Ref %s was not found in the current ref frame (%d refs)", r.Body, len(f.obs.refs)))
	}
	return f.obs.refs[r.N-1], nil
}

// readRef resolves a ref for a read-only consumer. It answers from the
// frame's retained tree only: an expired frame that holds the ref's evidence
// answers with a staleness warning; missing evidence (no frame, another epoch,
// a ref the frame never issued) fails rather than resolving positionally in a
// newer observation.
func (f refFrame) readRef(r refInput) (int, string, *ErrorInfo) {
	if !f.present {
		return -1, "", f.reject("ref_frame_missing", r, fmt.Sprintf("Ref %s cannot be used: no snapshot has published refs in this session", r.Body))
	}
	if r.Pinned && r.Pin != f.epoch {
		return -1, "", f.reject("ref_generation_mismatch", r, fmt.Sprintf("Ref %s was minted from a superseded snapshot generation", r.Body))
	}
	if f.issued != nil {
		if _, ok := f.issued[r.N]; !ok {
			return -1, "", f.reject("ref_not_issued", r, fmt.Sprintf("Ref %s was not issued by the current ref frame", r.Body))
		}
	}
	idx, err := f.lookup(r)
	if err != nil {
		return -1, "", err
	}
	warn := ""
	if f.expired {
		warn = fmt.Sprintf("Ref %s is stale: its ref frame expired after a device action; answered from the retained snapshot (refsGeneration %d)", r.Body, f.epoch)
	}
	return idx, warn, nil
}
