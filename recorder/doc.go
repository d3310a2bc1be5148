// Package recorder turns the journal of a live session into a .ad script
// (spec §5): it is a runner.Journal that the daemon attaches to a session
// armed by `open --save-script`.
//
// What is recorded: every successful step whose command the table marks
// recorded (lang.CommandSpec.Recorded == lang.RecordedYes); snapshots and
// reads (get, is, diff: "obs") are dropped, waits are kept. A step that targets a snapshot
// ref is rewritten to a selector chain resolved against the tree that
// authorised the ref (the ref frame's tree, from the journal's Resolution):
// candidates id, role+label, label, value, text, in that order, each kept
// only when it matches exactly one node of that tree — checked with the
// runner's own matcher (package runner/match: Segment, Resolve) — joined
// with " || "; fill adds editable=true to every candidate. The daemon also
// hands the recorder a full capture taken just before a ref step (Capture):
// the screen may have changed since the snapshot that issued the ref, and
// replay resolves against the screen as it is at the step, so a candidate
// must be unique in that capture too, and evidence is computed there. An
// id shared by several nodes is never used (id demotion), and a click on an
// identity-empty container is recorded against its only labelled
// descendant (container retargeting, §5.4). Generation pins never reach the
// file.
//
// A ref that cannot become a unique selector is refused (§5.3 rule 4, the
// refusal variant): the step's command answers with a warning at once, and
// publishing the script fails with an error naming the step, so a script
// that would not replay is never written. (The other variant, a synthetic
// `snapshot -i -s LABEL` before a kept ref, was not chosen: a label that is
// not unique would scope the wrong subtree on replay.)
//
// Element-targeting actions carry target-v1 evidence computed from the same
// tree, written only when replay's binding check, composed of the same
// matcher (match.Exists, HasIdentity, SiblingIndex, Resolve), isolates the
// node: adtest's replay fails an "unverifiable" annotation, so none is
// ever written.
//
// `fill … --record-as NAME` reaches the recorder as the written action with
// ${NAME} as its text (the literal was interpolated only for the device),
// so the literal never enters the file; candidates and evidence that would
// echo a masked literal are dropped.
//
// The script is written through lang.FormatAction (canonical; it parses
// back to the same actions) and published atomically by WriteFile, which
// refuses an existing file unless forced.
package recorder
